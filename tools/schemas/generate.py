#!/usr/bin/env python3
"""Writes Schemas/events/*.json and Schemas/commands/*.json from the compact spec below.

The schemas are data checked into the repository; this script only saves typing when a type
changes. Tests/InspectionTests/SchemaAgreementTests checks the Swift code against the files.
Run from the repository root: python3 tools/schemas/generate.py
"""
import json, os

def s(desc, **kw): return {"type": "string", "minLength": 1, "description": desc, **kw}
def text(desc): return {"type": "string", "description": desc}
def gtin14(desc="GTIN as 14 digits."): return {"type": "string", "pattern": "^[0-9]{14}$", "description": desc}
def gtin_any(desc="GTIN with 8, 12, 13 or 14 digits."): return {"type": "string", "pattern": "^[0-9]{8}$|^[0-9]{12,14}$", "description": desc}
def time(desc): return {"type": "string", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z)?$", "description": desc}
def code(lo, hi, desc): return {"type": "integer", "minimum": lo, "maximum": hi, "description": desc}
def count(desc): return {"type": "integer", "minimum": 0, "description": desc}
def arr(items, desc, min_items=0):
    a = {"type": "array", "items": items, "description": desc}
    if min_items: a["minItems"] = min_items
    return a
def obj(props, required, desc=None):
    o = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if desc: o["description"] = desc
    return o

VERDICT = code(0, 3, "0 unable to validate, 1 passed, 2 warning, 3 failure.")
LOCATION_KIND = code(0, 2, "0 store, 1 warehouse, 2 inspection centre.")
ROLE = code(0, 2, "0 inspector, 1 receiver, 2 manager.")
PRODUCT_TYPE = code(0, 2, "0 base unit, 1 case, 2 pallet.")
MODE = code(0, 4, "0 wholesale, 1 new product, 2 existing product, 3 reinspection, 4 ad-hoc.")
BATCH_MODE = code(0, 3, "0 wholesale, 1 new product, 2 existing product, 3 reinspection.")
SKIP = code(0, 2, "0 unable to collect, 1 out of stock, 2 no longer available.")
CONDITION = code(0, 1, "0 good, 1 damaged.")
PRIORITY = code(0, 2, "0 normal, 1 high, 2 urgent.")
DECOMMISSION = code(0, 2, "0 donate, 1 dispose, 2 return to the manufacturer.")
SHA = {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "Lower-case hex SHA-256 of the image."}
LISTING = obj({"locationID": s("Location that stocks the product."), "aisle": text("Aisle or shelf text.")}, ["locationID", "aisle"])
ATTRIBUTE = obj({"path": s("Attribute path, e.g. nutrition/energyKJ."), "value": text("Supplied value as text.")}, ["path", "value"])
FINDING = obj({"ruleID": s("Stable rule id."), "path": s("Attribute path the finding points at."), "verdict": VERDICT, "message": text("Rendered message.")}, ["ruleID", "path", "verdict", "message"])
TASK = obj({"taskID": s("Task id."), "gtin": gtin14()}, ["taskID", "gtin"])
CHILD = obj({"gtin": gtin14("GTIN-14 of a contained product."), "quantity": {"type": "integer", "minimum": 1, "description": "How many of it."}}, ["gtin", "quantity"])
CHILD_COMMAND = obj({"gtin": gtin_any("Contained product."), "quantity": {"type": "integer", "minimum": 1, "description": "How many of it."}}, ["gtin", "quantity"])

def ev(props, required): return (props, required)
RULE_CHECK = ev({"gtin": gtin14(), "datasheetID": s("Datasheet checked."), "ruleSets": arr(s("Rule set id@version."), "Rule sets applied."),
        "findings": arr(FINDING, "Findings."), "passedCount": count("Evaluations passed."), "warningCount": count("Warnings."),
        "failureCount": count("Failures."), "unableCount": count("Not evaluable.")},
       ["gtin", "datasheetID", "ruleSets", "findings", "passedCount", "warningCount", "failureCount", "unableCount"])
EVENTS = {
 ("LocationRegistered", 1): ("A place where products are inspected.", *ev({"locationID": s("Location id."), "name": s("Name."), "kind": LOCATION_KIND}, ["locationID", "name", "kind"])),
 ("InspectorRegistered", 1): ("A person who inspects, receives or manages.", *ev({"inspectorID": s("Inspector id."), "name": s("Name."), "role": ROLE}, ["inspectorID", "name", "role"])),
 ("ProductRegistered", 1): ("A trade item entered into the catalogue.", *ev({"gtin": gtin14(), "name": s("Product name."), "brand": text("Brand."), "manufacturer": text("Manufacturer."),
        "productType": PRODUCT_TYPE, "category": text("Category."), "childGTIN": gtin14("GTIN-14 of the contained unit (case to base)."),
        "childQuantity": count("Contained units (0 without a child)."), "listings": arr(LISTING, "Where it is stocked.")},
       ["gtin", "name", "brand", "manufacturer", "productType", "category", "childQuantity", "listings"])),
 ("ProductRegistered", 2): ("A trade item entered into the catalogue, with every product it directly contains.", *ev({"gtin": gtin14(), "name": s("Product name."), "brand": text("Brand."), "manufacturer": text("Manufacturer."),
        "productType": PRODUCT_TYPE, "category": text("Category."), "children": arr(CHILD, "The products of the next lower level with quantities (empty for a base unit)."),
        "listings": arr(LISTING, "Where it is stocked.")},
       ["gtin", "name", "brand", "manufacturer", "productType", "category", "children", "listings"])),
 ("DatasheetImported", 1): ("A supplier datasheet; the latest defines what an inspection covers.", *ev({"gtin": gtin14(), "datasheetID": s("Datasheet id."), "source": text("Origin."),
        "attributes": arr(ATTRIBUTE, "Attributes flattened to paths.", 1)}, ["gtin", "datasheetID", "source", "attributes"])),
 ("RuleCheckRecorded", 1): ("The rule engine checked a product's datasheet.", *RULE_CHECK),
 ("ProductReceived", 1): ("A sample arrived at an inspection centre (new-product queue).", *ev({"receptionID": s("Reception id."), "gtin": gtin14(), "locationID": s("Inspection centre."),
        "receivedBy": s("Receiver."), "condition": CONDITION, "priority": PRIORITY, "inspectBefore": time("Inspect-before date."),
        "decommission": DECOMMISSION, "storageLocation": s("Scanned shelf barcode.")},
       ["receptionID", "gtin", "locationID", "receivedBy", "condition", "priority", "decommission", "storageLocation"])),
 ("BatchAllocated", 1): ("A batch of tasks given to an inspector (batch status 0).", *ev({"batchID": s("Batch id."), "inspectorID": s("Holder."), "locationID": s("Location."), "mode": BATCH_MODE,
        "requestedQuantity": count("Quantity asked for."), "requestedMinutes": count("Minutes available."), "expiresAt": time("Expiry."),
        "tasks": arr(TASK, "Tasks in suggested order.", 1)}, ["batchID", "inspectorID", "locationID", "mode", "expiresAt", "tasks"])),
 ("AdHocTaskAllocated", 1): ("A single ad-hoc task, product in hand.", *ev({"taskID": s("Task id."), "inspectorID": s("Holder."), "locationID": s("Location."), "gtin": gtin14()},
       ["taskID", "inspectorID", "locationID", "gtin"])),
 ("CollectionStarted", 1): ("Collection started or resumed (batch status 1).", *ev({"batchID": s("Batch id.")}, ["batchID"])),
 ("CollectionPaused", 1): ("Collection paused.", *ev({"batchID": s("Batch id.")}, ["batchID"])),
 ("CollectionFinished", 1): ("Every task collected or skipped (batch status 2).", *ev({"batchID": s("Batch id.")}, ["batchID"])),
 ("CollectionCancelled", 1): ("Batch abandoned during collection (status 7).", *ev({"batchID": s("Batch id.")}, ["batchID"])),
 ("BatchSubmitted", 1): ("Results submitted (status 6).", *ev({"batchID": s("Batch id.")}, ["batchID"])),
 ("BatchCancelled", 1): ("Batch cancelled (status 7).", *ev({"batchID": s("Batch id."), "reason": s("Why.")}, ["batchID", "reason"])),
 ("BatchExpired", 1): ("Batch expired; open tasks released (status 7).", *ev({"batchID": s("Batch id."), "releasedTaskIDs": arr(s("Task id."), "Released tasks.")}, ["batchID", "releasedTaskIDs"])),
 ("ProductCollected", 1): ("A scan matched a task.", *ev({"taskID": s("Task id."), "scanned": s("Scanned text."), "matchedGTIN": gtin14("GTIN-14 the scan resolved to.")}, ["taskID", "scanned", "matchedGTIN"])),
 ("CollectionSkipped", 1): ("A product could not be collected; released.", *ev({"taskID": s("Task id."), "reason": SKIP}, ["taskID", "reason"])),
 ("InspectionStarted", 1): ("Inspection of a task started or resumed.", *ev({"taskID": s("Task id.")}, ["taskID"])),
 ("InspectionPaused", 1): ("Inspection of a task paused.", *ev({"taskID": s("Task id.")}, ["taskID"])),
 ("AttributeVerdictRecorded", 1): ("A verdict on one attribute (v1: no note or measured value).", *ev({"taskID": s("Task id."), "path": s("Attribute path."), "verdict": VERDICT}, ["taskID", "path", "verdict"])),
 ("AttributeVerdictRecorded", 2): ("A verdict on one attribute, with optional note and measured value.", *ev({"taskID": s("Task id."), "path": s("Attribute path."), "verdict": VERDICT,
        "note": text("Inspector's note."), "measuredValue": text("Measured or read value.")}, ["taskID", "path", "verdict"])),
 ("PhotoAttached", 1): ("A photo attached by hash; the image is in the blob store.", *ev({"taskID": s("Task id."), "sha256": SHA, "byteCount": {"type": "integer", "minimum": 1, "description": "Image size."},
        "contentType": {"type": "string", "enum": ["image/jpeg", "image/png", "image/heic"], "description": "Image type."}}, ["taskID", "sha256", "byteCount", "contentType"])),
 ("PhotoDetached", 1): ("A photo attached by mistake removed from its task; the image stays in the blob store.", *ev({"taskID": s("Task id."), "sha256": SHA}, ["taskID", "sha256"])),
 ("InspectionFinished", 1): ("Every attribute has a verdict: passed (2) or failed (3).", *ev({"taskID": s("Task id."), "result": code(2, 3, "2 passed, 3 failed."), "passedCount": count("Passed."),
        "warningCount": count("Warnings."), "failureCount": count("Failures."), "unableCount": count("Unable to validate.")},
       ["taskID", "result", "passedCount", "warningCount", "failureCount", "unableCount"])),
 ("InspectionSkipped", 1): ("Inspection skipped (inspection status 4).", *ev({"taskID": s("Task id."), "reason": s("Why.")}, ["taskID", "reason"])),
 ("ReplacementRequested", 1): ("A sample arrived damaged: not queued for inspection, a replacement asked of the manufacturer.", *ev({"receptionID": s("Reception id of the damaged sample."), "gtin": gtin14(),
        "locationID": s("Inspection centre the replacement goes to."), "requestedBy": s("Receiver.")}, ["receptionID", "gtin", "locationID", "requestedBy"])),
}

ENVELOPE = {"commandID": s("Unique id; a repeat returns the first outcome."), "actor": s("Who sends it."),
            "occurredAt": time("Device time of the action (server time when absent).")}
def cmd(name, desc, props, required):
    p = dict(ENVELOPE); p["type"] = {"const": name, "description": "Command type."}; p.update(props)
    return (desc, p, ["commandID", "actor", "type"] + required)
BATCH = {"batchID": s("Batch id.")}
TASKP = {"taskID": s("Task id.")}
VERDICT_ENTRY = obj({"path": s("Attribute path."), "verdict": VERDICT, "note": text("Note."), "measuredValue": text("Measured value.")}, ["path", "verdict"])
COMMANDS = [
 cmd("RegisterLocation", "Register or rename a location.", {"locationID": s("Id."), "name": s("Name."), "kind": LOCATION_KIND}, ["locationID", "name", "kind"]),
 cmd("RegisterInspector", "Register a person.", {"inspectorID": s("Id."), "name": s("Name."), "role": ROLE}, ["inspectorID", "name", "role"]),
 cmd("RegisterProduct", "Register a product.", {"gtin": gtin_any(), "name": s("Name."), "brand": text("Brand."), "manufacturer": text("Manufacturer."), "productType": PRODUCT_TYPE,
      "category": text("Category."), "childGTIN": gtin_any("Contained unit."), "childQuantity": count("Contained units."), "listings": arr(LISTING, "Where stocked."),
      "children": arr(CHILD_COMMAND, "Every contained product with its quantity (a shipper of mixed products has several); instead of childGTIN and childQuantity.")},
     ["gtin", "name", "brand", "manufacturer", "productType", "category"]),
 cmd("ImportDatasheet", "Import a datasheet for a product.", {"gtin": gtin_any(), "datasheetID": s("Id."), "source": text("Origin."), "attributes": arr(ATTRIBUTE, "Attributes.", 1)},
     ["gtin", "datasheetID", "source", "attributes"]),
 cmd("RecordRuleCheck", "Record rule engine findings.", {**RULE_CHECK[0], "gtin": gtin_any()}, RULE_CHECK[1]),
 cmd("ReceiveProduct", "Receive a sample at an inspection centre.", {"receptionID": s("Id."), "gtin": {"type": "string", "minLength": 1,
      "description": "The scanned code: GTIN digits (8, 12, 13 or 14), UPC-E, a GS1-128 element string (bracketed, raw with FNC1 as GS, with or without a symbology identifier) or a Digital Link URI."}, "locationID": s("Inspection centre."), "condition": CONDITION,
      "priority": PRIORITY, "inspectBefore": time("Inspect-before date."), "decommission": DECOMMISSION, "storageLocation": s("Scanned shelf barcode.")},
     ["receptionID", "gtin", "locationID", "storageLocation"]),
 cmd("AllocateBatch", "Ask for a batch: exactly one of quantity or minutes.", {"inspectorID": s("Inspector."), "locationID": s("Location."), "mode": BATCH_MODE,
      "quantity": {"type": "integer", "minimum": 1, "description": "Products wanted."}, "minutes": {"type": "integer", "minimum": 1, "description": "Minutes available."}},
     ["inspectorID", "locationID", "mode"]),
 cmd("AllocateAdHocTask", "Take one product for an ad-hoc inspection.", {"inspectorID": s("Inspector."), "locationID": s("Location."), "gtin": gtin_any()}, ["inspectorID", "locationID", "gtin"]),
 cmd("StartCollection", "Start or resume collection.", BATCH, ["batchID"]),
 cmd("PauseCollection", "Pause collection.", BATCH, ["batchID"]),
 cmd("FinishCollection", "Finish collection.", BATCH, ["batchID"]),
 cmd("CancelCollection", "Abandon the batch during collection.", BATCH, ["batchID"]),
 cmd("CollectProduct", "Match a scanned barcode to a pending task.", {**BATCH, "scanned": s("EAN-13/EAN-8/UPC-A/UPC-E digits or a GS1 element string with AI (01)."), "taskID": s("Expected task.")}, ["batchID", "scanned"]),
 cmd("SkipCollection", "Skip a task's collection.", {**TASKP, "reason": SKIP}, ["taskID", "reason"]),
 cmd("StartInspection", "Start or resume a task's inspection.", TASKP, ["taskID"]),
 cmd("PauseInspection", "Pause a task's inspection.", TASKP, ["taskID"]),
 cmd("RecordVerdicts", "Record attribute verdicts.", {**TASKP, "verdicts": arr(VERDICT_ENTRY, "Verdicts.", 1)}, ["taskID", "verdicts"]),
 cmd("AttachPhoto", "Attach a photo by SHA-256.", {**TASKP, "sha256": SHA, "byteCount": {"type": "integer", "minimum": 1, "description": "Image size."},
      "contentType": {"type": "string", "description": "image/jpeg, image/png or image/heic."}}, ["taskID", "sha256", "byteCount", "contentType"]),
 cmd("DetachPhoto", "Remove a photo attached by mistake, before the batch is submitted.", {**TASKP, "sha256": SHA}, ["taskID", "sha256"]),
 cmd("FinishInspection", "Finish a task's inspection.", TASKP, ["taskID"]),
 cmd("SkipInspection", "Skip a task's inspection.", {**TASKP, "reason": s("Why.")}, ["taskID", "reason"]),
 cmd("SubmitBatch", "Submit a batch ready for submission.", BATCH, ["batchID"]),
 cmd("CancelBatch", "Cancel a batch.", {**BATCH, "reason": s("Why.")}, ["batchID", "reason"]),
 cmd("ExpireBatch", "Release a batch past its expiry.", BATCH, ["batchID"]),
]

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas")
os.makedirs(os.path.join(root, "events"), exist_ok=True)
os.makedirs(os.path.join(root, "commands"), exist_ok=True)
def write(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=2); f.write("\n")
for (name, version), (desc, props, required) in EVENTS.items():
    write(os.path.join(root, "events", f"{name}.v{version}.json"), {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://itemaudit.example/schemas/events/{name}.v{version}.json",
        "title": f"{name} v{version}", "description": desc,
        "x-eventType": name, "x-schemaVersion": version, **obj(props, required)})
for (desc, props, required) in COMMANDS:
    name = props["type"]["const"]
    write(os.path.join(root, "commands", f"{name}.json"), {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://itemaudit.example/schemas/commands/{name}.json",
        "title": name, "description": desc, **obj(props, required)})
