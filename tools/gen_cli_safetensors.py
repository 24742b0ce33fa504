#!/usr/bin/env python3
"""gen_cli_safetensors.py - writes the two small checkpoints the CLI cases
tests/cli/tables/safetensors.in read (run from the repository root):
  tests/cli/gpt2_tiny.safetensors   wte.weight BF16 [2, 3], wpe.weight F16 [4, 3]
  tests/cli/dup_tensor.safetensors  wpe.weight twice in the header (refused)
Every value is exact in its dtype, so LEARNED prints them as written here."""
import json
import struct

WPE = (0.5, -1.25, 2.0, 0.0, 1.0, -0.5, 0.25, 3.0, -2.0, 1.5, -0.75, 0.125)
WTE = (1.0, -3.0, 0.5, 2.5, -0.25, 6.0)


def bf16(x):
    return struct.pack("<I", struct.unpack("<I", struct.pack("<f", x))[0])[2:]


def write(path, header, data):
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + data)


def main():
    wpe = struct.pack("<12e", *WPE)
    wte = b"".join(bf16(v) for v in WTE)
    hdr = {"__metadata__": {"format": "pt"},
           "wte.weight": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]},
           "wpe.weight": {"dtype": "F16", "shape": [4, 3], "data_offsets": [12, 36]}}
    write("tests/cli/gpt2_tiny.safetensors", json.dumps(hdr, separators=(",", ":")).encode(),
          wte + wpe)
    one = '"wpe.weight":{"dtype":"F16","shape":[4,3],"data_offsets":[0,24]}'
    write("tests/cli/dup_tensor.safetensors", ("{" + one + "," + one + "}").encode(), wpe)


if __name__ == "__main__":
    main()
