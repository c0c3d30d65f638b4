#!/usr/bin/env python3
"""Copies docs/openapi.json into Sources/DarkroomHTTPAPI/OpenAPI/OpenAPIDocument.swift, the copy
the `darkroom` binary serves at GET /v1/openapi.json. Run it after editing the document;
OpenAPIDocumentTests fails while the two differ. The document is kept as json.dumps writes it
(sort_keys, indent 1), so an edit made through this script's normalisation is stable."""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
document = root / "docs/openapi.json"
swift = root / "Sources/DarkroomHTTPAPI/OpenAPI/OpenAPIDocument.swift"

text = json.dumps(json.loads(document.read_text()), sort_keys=True, indent=1, ensure_ascii=False)
document.write_text(text + "\n")
source = swift.read_text()
head, _, rest = source.partition('    static let json = #"""\n')
_, _, tail = rest.partition('        """#\n')
body = "".join("        " + line + "\n" if line else "\n" for line in text.split("\n"))
swift.write_text(head + '    static let json = #"""\n' + body + '        """#\n' + tail)
