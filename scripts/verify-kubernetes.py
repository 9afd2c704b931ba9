#!/usr/bin/env python3
"""Checks deploy/kubernetes without a cluster: every file parses as YAML, the kustomization lists them all, and the
objects agree with one another (probes on /ready and /health, selectors, config references, known settings)."""
import pathlib
import re
import sys

import yaml

root = pathlib.Path(__file__).resolve().parent.parent
folder = root / "deploy" / "kubernetes"
problems = []
objects = {}
for path in sorted(folder.glob("*.yaml")):
    for document in yaml.safe_load_all(path.read_text()):
        if document is None:
            continue
        objects[(document.get("kind"), document.get("metadata", {}).get("name"))] = (path.name, document)


def need(condition, message):
    if not condition:
        problems.append(message)


kustomization = objects.get(("Kustomization", None))
need(kustomization is not None, "kustomization.yaml is missing")
listed = set(kustomization[1].get("resources", [])) if kustomization else set()
files = {name for name, document in objects.values() if document.get("kind") != "Kustomization"}
need(listed == files, f"kustomization resources {sorted(listed)} differ from the files {sorted(files)}")

deployment = objects.get(("Deployment", "herald"), (None, {}))[1]
pod = deployment.get("spec", {}).get("template", {})
labels = pod.get("metadata", {}).get("labels", {})
need(deployment.get("spec", {}).get("replicas", 1) >= 2, "the Deployment runs fewer than two replicas")
need(deployment.get("spec", {}).get("selector", {}).get("matchLabels") == labels, "Deployment selector/labels differ")
containers = pod.get("spec", {}).get("containers", [])
need(len(containers) == 1, "the pod has one container")
container = containers[0] if containers else {}
need(container.get("readinessProbe", {}).get("httpGet", {}).get("path") == "/ready", "readiness is not /ready")
need(container.get("livenessProbe", {}).get("httpGet", {}).get("path") == "/health", "liveness is not /health")
for source in container.get("envFrom", []):
    for kind, key in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
        if key in source:
            need((kind, source[key]["name"]) in objects, f"{kind} {source[key]['name']} is referenced but absent")

budget = objects.get(("PodDisruptionBudget", "herald"), (None, {}))[1]
need(budget.get("spec", {}).get("selector", {}).get("matchLabels") == labels, "the PodDisruptionBudget selects no pod")
need(
    budget.get("spec", {}).get("minAvailable", 0) < deployment.get("spec", {}).get("replicas", 1),
    "minAvailable must stay below the replicas, or no node can ever be drained",
)
service = objects.get(("Service", "herald"), (None, {}))[1]
need(service.get("spec", {}).get("selector") == labels, "the Service selects no pod")

# Every setting must be one herald reads: ServiceConfig's table of variables, or one its extensions read from the
# environment only (secrets, which have no command-line flag).
config_source = "".join(path.read_text() for path in (root / "Sources" / "HeraldService" / "Config").glob("*.swift"))
known = set(re.findall(r'\("((?:HERALD_|DATABASE_)[A-Z_]+)", "--', config_source))
known |= set(re.findall(r'environment\["((?:HERALD_|DATABASE_)[A-Z_]+)"\]', config_source))
for kind, field in (("ConfigMap", "data"), ("Secret", "stringData")):
    document = objects.get((kind, "herald"), (None, {}))[1]
    for name in document.get(field, {}):
        need(name in known, f"{kind} sets {name}, which herald does not read")

if problems:
    print("\n".join("deploy/kubernetes: " + problem for problem in problems))
    sys.exit(1)
print(f"deploy/kubernetes: {len(objects)} objects parse and agree")
