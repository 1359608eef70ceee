// What the screens show: the server's last answer with the commands still in the outbox applied
// on top, so an action shows as done the moment it is saved, online or not.

/** `batch` (from GET /v1/batches/{id}) with the unsent `commands` applied; a copy. */
export function batchWith(batch, commands) {
  const copy = structuredClone(batch);
  const tasks = new Map((copy.tasks || []).map((task) => [task.taskID, task]));
  for (const c of commands) {
    const task = tasks.get(c.taskID);
    if (c.batchID && c.batchID !== copy.batchID && !task) continue;
    if (!c.batchID && !task) continue;
    switch (c.type) {
      case "StartCollection": if (copy.status === 0) copy.status = 1; copy.collectionPaused = false; break;
      case "CollectProduct": if (task) { task.collectionStatus = 2; task.inspectionStatus = 1; } break;
      case "SkipCollection": task.collectionStatus = 3; task.skipReason = c.reason; break;
      case "PauseCollection": copy.collectionPaused = true; break;
      case "FinishCollection": if (copy.status === 1) copy.status = 2; break;
      case "StartInspection": if (copy.status === 2) copy.status = 3; task.started = true; break;
      case "AttachPhoto": if (!task.photos.includes(c.sha256)) task.photos.push(c.sha256); break;
      case "DetachPhoto": task.photos = task.photos.filter((sha) => sha !== c.sha256); break;
      case "FinishInspection": task.finished = true; break;
      case "SubmitBatch": copy.status = 6; break;
    }
  }
  if (copy.status >= 2 && copy.status <= 5) {
    const resolved = [...tasks.values()].every((task) => isResolved(task));
    const photographed = [...tasks.values()].every((task) => !isInspected(task) || task.photos.length > 0);
    if (resolved) copy.status = photographed ? 5 : 4;
  }
  return copy;
}

/** Whether a task's inspection is done (by the server, or by a command not yet sent). */
export function isInspected(task) {
  return task.finished || task.inspectionStatus === 2 || task.inspectionStatus === 3;
}

/** Collected and inspected, or skipped at either step. */
export function isResolved(task) {
  return task.collectionStatus === 3 || task.inspectionStatus === 4 || isInspected(task);
}

/** The datasheet view with the unsent verdicts of its task applied; a copy. */
export function datasheetWith(sheet, commands) {
  const copy = structuredClone(sheet);
  const byPath = new Map(copy.attributes.map((a) => [a.path, a]));
  for (const c of commands) {
    if (c.type !== "RecordVerdicts" || c.taskID !== copy.taskID) continue;
    for (const v of c.verdicts) {
      const attribute = byPath.get(v.path);
      if (!attribute) continue;
      attribute.verdict = v.verdict;
      if (v.measuredValue !== undefined) attribute.measuredValue = v.measuredValue;
      if (v.note !== undefined) attribute.note = v.note;
    }
  }
  return copy;
}

/** The attributes to judge in inspection order: by group (the datasheet's group order), then
 *  position. A parent the server made up from its children (no value of its own) is left out:
 *  its verdict rolls up from theirs, and the datasheet has no such attribute to record. */
export function inspectionOrder(sheet) {
  const groupOrder = new Map((sheet.groups || []).map((g) => [g.id, g.order]));
  const parents = new Set(sheet.attributes.map((a) => a.parent).filter(Boolean));
  return sheet.attributes.filter((a) => !(parents.has(a.path) && !a.value)).sort((a, b) =>
    (groupOrder.get(a.group) ?? 999) - (groupOrder.get(b.group) ?? 999) || (a.order ?? 0) - (b.order ?? 0));
}
