// The console's only way to the server: the public /v1 API, with the pasted key as a bearer token.
// The key lives in sessionStorage alone: it is gone when the tab closes and is never written anywhere else.

const KEY_NAME = "herald.console.key";

/** An answer other than 2xx, with its problem document when the server sent one. */
export class ApiError extends Error {
  constructor(status, problem, headers) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.headers = headers;
  }

  /** The problem's field errors, each {pointer, detail, code?, offset?}; a lone `pointer` counts as one. */
  get fieldErrors() {
    const errors = Array.isArray(this.problem.errors) ? this.problem.errors : [];
    if (errors.length === 0 && this.problem.pointer !== undefined) {
      return [{ pointer: this.problem.pointer, detail: this.problem.detail || this.problem.title }];
    }
    return errors;
  }
}

export function savedKey() {
  return sessionStorage.getItem(KEY_NAME);
}

export function saveKey(key) {
  sessionStorage.setItem(KEY_NAME, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_NAME);
}

/** One call: `body` is sent as JSON; `etag` becomes If-Match. Resolves to {status, etag, body}. */
export async function call(method, path, { body, etag, query } = {}) {
  const key = savedKey();
  if (!key) throw new ApiError(401, { title: "No API key", detail: "Paste an API key first." });
  const headers = { Authorization: `Bearer ${key}`, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-Match"] = etag;
  let url = path;
  if (query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
    }
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  const type = response.headers.get("Content-Type") || "";
  const parsed = type.includes("json") && response.status !== 204 ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, parsed, response.headers);
  return { status: response.status, etag: response.headers.get("ETag"), body: parsed };
}

/** A path segment, percent-encoded. */
export function seg(value) {
  return encodeURIComponent(value);
}

/** The version number an ETag such as `"3"` carries. */
export function versionOf(etag) {
  const match = /"(\d+)"/.exec(etag || "");
  return match ? Number(match[1]) : null;
}

/**
 * What the key may do. A key without `categories:write` is read-only in the console. The stats route needs that
 * scope and answers 404 for an unknown category to a key that holds it, 403 to one that does not.
 */
export async function probeAccess() {
  const access = { valid: false, categoriesWrite: false };
  try {
    await call("GET", "/v1/categories", { query: { limit: 1 } });
    access.valid = true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return access;
    throw error;
  }
  try {
    await call("GET", "/v1/categories/console-scope-probe/stats");
    access.categoriesWrite = true;
  } catch (error) {
    access.categoriesWrite = error instanceof ApiError && error.status === 404;
  }
  return access;
}
