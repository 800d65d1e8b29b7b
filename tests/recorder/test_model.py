"""A model msprobe's samples never saw, for the recorder's end-to-end tests: embeddings,
attention with a boolean mask and masked_fill(-inf), bfloat16 and float16 parts, integer and bool
outputs, a 0-dim loss, in-place ops, NaN/Inf, dropout with p=0, one module called twice, kwargs
and tuple outputs; train() runs steps with an optimizer inside the recorded region."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, SEQ, BATCH = 40, 16, 6, 2


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(DIM)
        scores = scores.masked_fill(~mask, float("-inf"))
        weights = F.dropout(torch.softmax(scores, dim=-1), p=0.0, training=self.training)
        return self.out(weights @ v), weights   # tuple output


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.attn = Attention()
        self.norm = nn.LayerNorm(DIM)          # called twice
        self.bf16 = nn.Linear(DIM, DIM).to(torch.bfloat16)
        self.head = nn.Linear(DIM, VOCAB)
        self.drop = nn.Dropout(p=0.0)

    def forward(self, tokens):
        x = self.norm(self.embed(tokens))
        mask = torch.tril(torch.ones(SEQ, SEQ, dtype=torch.bool))
        a, weights = self.attn(x, mask=mask)   # kwargs
        x = x + a
        x = x + self.bf16(x.to(torch.bfloat16)).float()
        half = (x.half() * 2).float() / 2      # float16 part
        x = self.drop(self.norm(half))
        x.mul_(1.0)                            # in-place on an intermediate
        side = torch.log(x.detach() - 100)     # NaN values, no gradient path
        weights.isinf()                        # bool output with -inf inputs
        return self.head(x), side.isnan().sum(), x.argmax(-1)   # float, int 0-dim, int tensor


def make_batches(n, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen),
             torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen)) for _ in range(n)]


def train(model, batches, recorder=None):
    """Runs the steps; returns each step's logits and loss and the final parameters and grads."""
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    outs = []
    for tokens, target in batches:
        if recorder is not None:
            recorder.start(model)
        opt.zero_grad()
        logits, nan_count, top = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), target.reshape(-1))
        loss.backward()
        opt.step()
        if recorder is not None:
            recorder.stop()
            recorder.step()
        outs.append((logits.detach().clone(), loss.detach().clone(), nan_count, top))
    grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    params = {n: p.detach().clone() for n, p in model.named_parameters()}
    return outs, params, grads


def fresh_model():
    torch.manual_seed(0)
    return Net()
