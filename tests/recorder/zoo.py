"""Small models with the features real training code uses and the CNN samples do not: recurrent
layers (torch._VF), attention with a key padding mask, residual blocks with in-place ReLU,
activation checkpointing, sparse embedding gradients, complex FFTs, and autocast to bfloat16.
Each takes one input from `make_input()`."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16, padding_idx=0)
        self.lstm = nn.LSTM(16, 16, batch_first=True)
        self.gru = nn.GRU(16, 8)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        g, _ = self.gru(h.transpose(0, 1))
        return self.fc(g[-1])

    @staticmethod
    def make_input():
        return torch.randint(0, 50, (2, 5))


class PaddedAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.att = nn.MultiheadAttention(16, 4, batch_first=True)
        self.ln = nn.LayerNorm(16)

    def forward(self, x):
        mask = torch.zeros(x.shape[0], x.shape[1], dtype=torch.bool)
        mask[:, -2:] = True
        y, _ = self.att(x, x, x, key_padding_mask=mask)
        return self.ln(y + x).sum(-1)

    @staticmethod
    def make_input():
        return torch.randn(2, 6, 16)


class Residual(nn.Module):
    """torchvision's BasicBlock pattern: in-place ReLU, `out += identity`."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.relu = nn.ReLU(inplace=True)
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        identity = x
        out = self.bn(self.conv(self.relu(x * 1)))
        out += identity
        return self.pool(self.relu(out)).flatten(1)

    @staticmethod
    def make_input():
        return torch.randn(2, 3, 8, 8)


class Checkpointed(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 2)

    def forward(self, x):
        return self.b(checkpoint(lambda t: torch.tanh(self.a(t)), x))

    @staticmethod
    def make_input():
        return torch.randn(4, 8, requires_grad=True)


class SparseEmbedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 4, sparse=True)

    def forward(self, x):
        return self.emb(x).sum(1)

    @staticmethod
    def make_input():
        return torch.randint(0, 20, (3, 4))


class Spectral(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        f = torch.fft.rfft(self.fc(x))
        return torch.abs(f).sum(-1) + torch.view_as_real(f).mean()

    @staticmethod
    def make_input():
        return torch.randn(2, 16)


class Autocast(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return self.fc(x).float()

    @staticmethod
    def make_input():
        return torch.randn(2, 16)


MODELS = (Recurrent, PaddedAttention, Residual, Checkpointed, SparseEmbedding, Spectral, Autocast)


def train(model, x, steps=2, rec=None):
    """SGD steps on sum(model(x)); the recorder, if any, around each step."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        if rec is not None:
            rec.start(model)
        model(x).float().sum().backward()
        opt.step()
        opt.zero_grad()
        if rec is not None:
            rec.stop()
            rec.step()
    return model.state_dict()
