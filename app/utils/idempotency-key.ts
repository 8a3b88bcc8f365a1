/**
 * An idempotency key, as every money call takes one (docs/product.md, the
 * money rules): what a client may send is 8 to 190 printable ASCII
 * characters. The database stores it behind a prefix naming the call
 * (`boost:`, `dare:`, `reject:`), so its tables allow 200. The SQL says the
 * same in each function and table; tests/sql/limits.test.ts holds the two
 * equal.
 */
export const IDEMPOTENCY_KEY = /^[!-~]{8,190}$/

/** A key as the database stores it: a client's key behind its call's prefix. */
export const STORED_IDEMPOTENCY_KEY = /^[!-~]{8,200}$/
