#!/usr/bin/env python3
"""Write the `schema` target's seed corpus: every schema of the vendored
JSON-Schema-Test-Suite (suite/tests/corpus/json-schema-test-suite-full) with each of its test
instances, as `schema` NUL `instance`, into fuzz/corpus/schema/ (not committed)."""

import hashlib
import json
import pathlib

here = pathlib.Path(__file__).resolve().parent
suite = here.parent / "suite/tests/corpus/json-schema-test-suite-full/tests"
out = here / "corpus/schema"
out.mkdir(parents=True, exist_ok=True)
written = 0
for path in sorted(suite.rglob("*.json")):
    for group in json.loads(path.read_text()):
        schema = json.dumps(group["schema"], ensure_ascii=False)
        for test in group["tests"]:
            data = (schema + "\0" + json.dumps(test["data"], ensure_ascii=False)).encode()
            if len(data) > 4096:
                continue
            (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
            written += 1
print(f"{written} seeds in {out}")
