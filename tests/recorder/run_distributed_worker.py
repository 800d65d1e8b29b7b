#!/usr/bin/env python3
"""One rank of the recorder's torch.distributed test (gloo, CPU): records a step of
collectives and point-to-point ops at L1 into CAPTURE, rank taken from the process group.

    run_distributed_worker.py CAPTURE INIT_FILE RANK WORLD
"""
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from msdump_record import Recorder  # noqa: E402


def main():
    capture, init_file, rank, world = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world)
    rec = Recorder(capture, "L1")            # rank=None: the process group's rank
    rec.start()
    x = torch.full((4,), float(rank + 1))
    dist.all_reduce(x)                                   # 1 + 2 = 3
    y = torch.full((4,), float(rank + 1))
    work = dist.all_reduce(y, op=dist.ReduceOp.MAX, async_op=True)
    work.wait()                                          # 2
    gathered = [torch.zeros(4) for _ in range(world)]
    dist.all_gather(gathered, torch.full((4,), float(10 + rank)))
    dist.broadcast(torch.full((2,), float(rank + 5)), 0, group=dist.group.WORLD)
    if rank == 0:
        dist.isend(torch.full((3,), 42.0), 1).wait()
    else:
        buf = torch.zeros(3)
        dist.irecv(buf, 0).wait()                        # 42 once waited
    peer = 1 - rank
    recv = torch.zeros(2)
    ops = [dist.P2POp(dist.isend, torch.full((2,), float(100 + rank)), peer),
           dist.P2POp(dist.irecv, recv, peer)]
    for w in dist.batch_isend_irecv(ops):
        w.wait()
    dist.gather(torch.full((2,), float(rank)), [torch.zeros(2) for _ in range(world)] if rank == 0 else None, dst=0)
    rec.stop()
    rec.close()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
