#!/usr/bin/env python3
"""Answers ProofsTests' PymerkleAgreementTests with pymerkle (PyPI): roots and proofs of a tree.

Reads one JSON object on stdin: {"seed": S, "size": N, "sizes": [...], "inclusion": [[index, size], ...],
"consistency": [[old, new], ...]}; leaf i's data is the first (i % 33) bytes of
SHA-256(0x00 || "S:i"), as the Swift test makes it. Prints {"roots": {size: hex},
"inclusion": [[hex, ...], ...] (the leaf's own hash, then its siblings leaf end first),
"consistency": [{"path", "subset", "rule"}, ...] (pymerkle's own form, which is not RFC 9162's)}.
"""
import hashlib
import json
import sys

try:
    from pymerkle import InmemoryTree
except ImportError:
    sys.exit("pymerkle is not installed: run tools/setup (python3 -m pip install pymerkle)")


def main():
    request = json.load(sys.stdin)
    seed, size = request["seed"], request["size"]
    tree = InmemoryTree(algorithm="sha256")
    for i in range(size):
        tree.append_entry(hashlib.sha256(b"\x00" + f"{seed}:{i}".encode()).digest()[: i % 33])
    roots = {str(s): tree.get_root(s).hex() if s > 0 else hashlib.sha256(b"").hexdigest() for s in request["sizes"]}
    inclusion = []
    for index, tree_size in request["inclusion"]:
        # pymerkle's path starts with the leaf's own hash; the siblings follow, leaf end first.
        inclusion.append(tree.prove_inclusion(index + 1, tree_size).serialize()["path"])
    consistency = []
    for old, new in request["consistency"]:
        proof = tree.prove_consistency(old, new).serialize()
        consistency.append({"path": proof["path"], "subset": proof["subset"], "rule": proof["rule"]})
    json.dump({"roots": roots, "inclusion": inclusion, "consistency": consistency}, sys.stdout)


main()
