// Reading the data sets a page hands a demo in its data-datasets attribute (chapters 1 to
// 4, 6 and 7): the JSON list, how an entry is named, and an entry's held-out test set.
// What an entry must hold is each demo's business: it checks the entry with its own core.

/** "data set k + 1", with the entry's name in quotes if it has one: how errors name it. */
export const datasetWhere = (d, k) => `data set ${k + 1}${d && typeof d.name === "string" ? ` ("${d.name}")` : ""}`;

/** The entry's name, or "data set k + 1" where it has none. */
export const datasetName = (d, k) => (typeof d.name === "string" && d.name ? d.name : `data set ${k + 1}`);

/**
 * The text of data-datasets read: a non-empty JSON array (listOf says of what, in the
 * error), every entry d (the k-th) turned by check(d, k) into the demo's data set.
 * Throws an Error saying what is wrong.
 */
export function parseDatasetList(text, listOf, check) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`data-datasets is not valid JSON (${err.message})`);
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new Error(`data-datasets must be a non-empty JSON array of ${listOf}`);
  return raw.map(check);
}

/**
 * An entry checked: it must be an object (shape names its fields, in the error), and
 * check(d) returns what the demo keeps of it.  Any error is said of the entry
 * ("data set 2 ("name"): ...").
 */
export function checkEntry(d, k, shape, check) {
  try {
    if (!d || typeof d !== "object") throw new Error(`must be an object ${shape}`);
    return check(d);
  } catch (err) {
    throw new Error(`${datasetWhere(d, k)}: ${err.message}`);
  }
}

/**
 * An entry's held-out test set {X: d.X_test, y: d.y_test}, checked by the core's
 * checkHeldOut for points of dimension dim; null where the entry has none.  An error
 * says "its test set: ...", after where (and a comma) if given.
 */
export function heldOutOf(d, checkHeldOut, dim, where = null) {
  if (d.X_test === undefined && d.y_test === undefined) return null;
  try {
    return checkHeldOut({ X: d.X_test, y: d.y_test }, dim);
  } catch (err) {
    throw new Error(`${where === null ? "" : `${where}, `}its test set: ${err.message}`);
  }
}
