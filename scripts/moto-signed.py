#!/usr/bin/env python3
"""Runs moto's S3 server (PyPI `moto[server]`) with its signature check reading the raw request
URI — the one the client signed — instead of the decoded path werkzeug hands it.

moto 5 checks a SigV4 signature against the *decoded* path and query, so a key or prefix holding a
byte outside the unreserved set other than a space (`+`, `=`, `%`, `/` in a query, `é`) fails even
when AWS's own SDK signs it. Nothing else changes. Used by the tests' MotoS3Server
(Tests/DarkroomTestSupport) and scripts/check-s3-fleet.py; the arguments are moto_server's
(`-H 127.0.0.1 -p PORT`).

STS `AssumeRoleWithWebIdentity` is answered without a signature, as AWS does.
"""
import sys

import moto.core.authorization as authorization

original = authorization.ActionAuthenticatorMixin._authenticate_and_authorize_action


def checked_on_raw_uri(self, request_class, resource="*"):
    # AWS serves STS AssumeRoleWithWebIdentity unsigned (the web-identity token is the proof);
    # moto would ask a signature of it once INITIAL_NO_AUTH_ACTION_COUNT is spent.
    if type(self).__module__.startswith("moto.sts") and self._get_action() == "AssumeRoleWithWebIdentity":
        return None
    environ = getattr(getattr(self, "request", None), "environ", None) or {}
    raw = environ.get("RAW_URI")
    if not raw:
        return original(self, request_class, resource)
    decoded, self.uri = self.uri, raw
    try:
        return original(self, request_class, resource)
    finally:
        self.uri = decoded


authorization.ActionAuthenticatorMixin._authenticate_and_authorize_action = checked_on_raw_uri

from moto.server import main  # noqa: E402 - after the patch, so the server uses it

main(sys.argv[1:])
