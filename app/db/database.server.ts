import { mkdir } from 'node:fs/promises'
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite'
import pg from 'pg'

/**
 * The one way the app talks to Postgres, whichever engine is behind it:
 * PGlite (Postgres in WebAssembly, the embedded default) or a Postgres server
 * (node-postgres pool, for DATABASE_URL and for Supabase's database).
 *
 * Both engines return the same JavaScript values: int8 (bigint: coins,
 * counts) as number, throwing rather than rounding past 2^53; numeric as
 * string; timestamptz as Date; json/jsonb parsed.
 */

export interface QueryResult<T> {
	rows: T[]
	/**
	 * The statement's command tag (SELECT, INSERT, UPDATE, DELETE, MERGE, ...)
	 * and the row count it reports: rows returned by a SELECT, rows changed by
	 * a data-modifying statement (which returns no rows without RETURNING).
	 * Query builders need them to report affected rows (the local
	 * platform's Kysely dialect, app/modules/account/backends/better-auth/kysely-dialect.server.ts); undefined when the engine did not say.
	 */
	command?: string
	rowCount?: number
}

export interface Queryable {
	query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<T>>
}

/** A transaction's handle. `exec` runs multi-statement SQL (migrations). */
export interface Transaction extends Queryable {
	exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
	readonly kind: 'pglite' | 'postgres'
	/**
	 * BEGIN, fn, COMMIT; ROLLBACK when fn throws (the error is rethrown). If fn
	 * swallowed a database error, COMMIT turns into a rollback and this throws.
	 * Use only `tx` inside fn: on PGlite, calling the database itself (or
	 * nesting transaction()) from inside waits for the transaction to end and
	 * so never returns.
	 */
	transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>
	/**
	 * One statement (after `options.setup`) as a transaction of its own. On a
	 * Postgres server both go in one message, a single round trip: a row lock
	 * the statement takes is released as it ends, not a round trip later when
	 * a COMMIT arrives (every boost of a dare waits for the lock on its pot,
	 * so on a dare the whole audience boosts, that wait is the throughput).
	 * The values travel inlined as literals (`inlineParameters`): only for
	 * statements whose `$n` all stand for values.
	 */
	statement<T = Record<string, unknown>>(text: string, params: readonly unknown[], options?: TransactionOptions): Promise<QueryResult<T>>
	/** Multi-statement SQL, run as one implicit transaction. */
	exec(sql: string): Promise<void>
	close(): Promise<void>
	/** A Postgres pool's connections (for /metrics); none on PGlite. */
	poolStats?(): { total: number; idle: number; waiting: number }
}

export interface TransactionOptions {
	/**
	 * SQL run first inside the transaction, sent with BEGIN in one round trip
	 * on a Postgres server (a request's role and claims: as-user.server.ts).
	 * Trusted text only: no parameters, so every value in it is a literal
	 * built with `sqlLiteral`.
	 */
	setup?: string
}

/** A string as a SQL literal (node-postgres' escaping: quotes doubled, backslashes in an E'' string). */
export const sqlLiteral: (value: string) => string = pg.escapeLiteral

/**
 * A parameterised statement with its values written in as quoted literals
 * (`$1` becomes `'…'`), for the simple query protocol, which takes no
 * parameters. Every value is quoted, numbers and booleans too: an untyped
 * literal takes the type the statement gives it, exactly as a parameter
 * does, and a quoted number cannot join a minus before it into a comment.
 * Only strings, finite numbers, booleans and null; a NUL (which would end
 * the query text) is refused, as Postgres refuses it as a parameter.
 */
export function inlineParameters(text: string, params: readonly unknown[]): string {
	return text.replace(/\$(\d+)/g, (_, n: string) => {
		const index = Number(n) - 1
		if (index < 0 || index >= params.length) throw new RangeError(`inlineParameters: no value for $${n}`)
		const value = params[index]
		if (value === null || value === undefined) return 'null'
		if (typeof value === 'boolean') return value ? "'true'" : "'false'"
		if (typeof value === 'number') {
			if (!Number.isFinite(value)) throw new RangeError(`inlineParameters: $${n} is not a finite number`)
			return `'${value}'`
		}
		if (typeof value === 'string') {
			if (value.includes('\0')) throw new RangeError(`inlineParameters: $${n} holds a NUL character`)
			return sqlLiteral(value)
		}
		throw new TypeError(`inlineParameters: $${n} is a ${typeof value}`)
	})
}

export interface DatabaseOptions {
	/** postgres:// or postgresql:// URL: a node-postgres pool. */
	url?: string
	/** PGlite data folder (created if missing); undefined or 'memory://' for in-memory. */
	dataDir?: string
	/** node-postgres pool size (default DEFAULT_POOL_SIZE). */
	poolSize?: number
}

/** The connections a node-postgres pool of the app holds unless told otherwise. */
export const DEFAULT_POOL_SIZE = 10

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
	if (opts.url) return createPostgresDatabase(opts.url, opts.poolSize)
	return createPGliteDatabase(opts.dataDir)
}

const INT8_OID = 20
const INT8_ARRAY_OID = 1016

function parseInt8(value: string): number {
	const n = Number(value)
	// Coin amounts are far below 2^53; silently rounding a larger value would
	// corrupt money, so refuse instead.
	if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is beyond Number.MAX_SAFE_INTEGER`)
	return n
}

// ---------------------------------------------------------------------------
// PGlite
// ---------------------------------------------------------------------------

/**
 * Open a PGlite database: in the folder `dataDir`, or in memory. An in-memory
 * one may start from `loadDataDir`, a data directory PGlite dumped
 * (`dumpDataDir`), instead of an empty cluster.
 */
export async function createPGliteDatabase(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
	const inMemory = dataDir === undefined || dataDir === '' || dataDir.startsWith('memory://')
	if (!inMemory) await mkdir(dataDir, { recursive: true })
	const pglite = await PGlite.create({
		...(inMemory ? { loadDataDir: options.loadDataDir } : { dataDir }),
		parsers: {
			[INT8_OID]: (value: string) => parseInt8(value),
			[INT8_ARRAY_OID]: (value: string) =>
				pgliteTypes.arrayParser(value, (element: string) => parseInt8(element), INT8_ARRAY_OID),
		},
	})
	return wrapPGlite(pglite)
}

/**
 * PGlite attaches the failed statement's parameters to its errors; they are
 * people's data (addresses, names) and must not reach a log line, so they
 * are dropped where the error enters the app (see app/security/log.server.ts).
 */
function withoutParameters(error: unknown): unknown {
	if (error && typeof error === 'object') {
		delete (error as { params?: unknown }).params
		delete (error as { queryOptions?: unknown }).queryOptions
	}
	return error
}

function pgliteResult<T>(result: { rows: T[]; command?: string; rowCount?: number }): QueryResult<T> {
	return { rows: result.rows, command: result.command, rowCount: result.rowCount }
}

function wrapPGlite(pglite: PGlite): Database {
	// PGlite already queues its own calls; this queue additionally makes
	// "exec, then roll back if it left a transaction open" one step, so no
	// other caller can run in between on the one connection.
	let tail: Promise<unknown> = Promise.resolve()
	const serial = <T>(fn: () => Promise<T>): Promise<T> => {
		const run = tail.then(fn, fn)
		tail = run.catch(() => {})
		return run
	}

	const database: Database = {
		kind: 'pglite',
		query<T>(text: string, params?: unknown[]) {
			return serial(async () => {
				const result = await pglite.query<T>(text, params).catch((error: unknown) => {
					throw withoutParameters(error)
				})
				return pgliteResult(result)
			})
		},
		transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
			// PGlite's transaction() issues ROLLBACK whenever the callback throws,
			// and COMMIT of an aborted transaction throws TransactionAbortedError.
			return serial(() =>
				pglite.transaction(async (tx) => {
					if (options?.setup) await tx.exec(options.setup)
					return fn({
						async query<R>(text: string, params?: unknown[]) {
							const result = await tx.query<R>(text, params).catch((error: unknown) => {
								throw withoutParameters(error)
							})
							return pgliteResult(result)
						},
						async exec(sql: string) {
							await tx.exec(sql)
						},
					})
				}),
			)
		},
		statement<T>(text: string, params: readonly unknown[], options?: TransactionOptions) {
			// One connection, no round trips: a transaction of the one statement.
			return database.transaction((tx) => tx.query<T>(text, [...params]), options)
		},
		exec(sql: string) {
			return serial(async () => {
				try {
					await pglite.exec(sql)
				} catch (error) {
					// SQL that opened its own transaction (BEGIN inside the text) and
					// failed would otherwise leave the connection aborted for every
					// later caller.
					if (pglite.isInTransaction()) await pglite.exec('rollback')
					throw error
				}
			})
		},
		async close() {
			await serial(async () => {
				if (!pglite.closed) await pglite.close()
			})
		},
	}
	return database
}

// ---------------------------------------------------------------------------
// Postgres (node-postgres)
// ---------------------------------------------------------------------------

// pg-types' signature only admits the scalar builtins' oids.
const defaultPgParser = pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => (value: string) => unknown

const pgTypes = {
	getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
		if (oid === INT8_OID) return parseInt8
		if (oid === INT8_ARRAY_OID) {
			const parseTextArray = defaultPgParser(INT8_ARRAY_OID, 'text')
			return (value: string) => mapNested(parseTextArray(value), (element) => parseInt8(String(element)))
		}
		return defaultPgParser(oid, format ?? 'text')
	},
}

function mapNested(value: unknown, fn: (element: unknown) => unknown): unknown {
	if (Array.isArray(value)) return value.map((item) => mapNested(item, fn))
	return value === null ? null : fn(value)
}

function pgResult<T>(result: pg.QueryResult): QueryResult<T> {
	return { rows: result.rows as T[], command: result.command, rowCount: result.rowCount ?? undefined }
}

/**
 * Why a connection must not go back to the pool after a call, or undefined.
 * A FATAL from the server (the backend terminated, a shutdown) ends it. A
 * plain refusal arrives before the server says in which state it left the
 * connection (ReadyForQuery), so after one the state is waited for with an
 * empty query: idle is good, a transaction block left open is not.
 */
async function unusable(client: pg.PoolClient, failure: unknown): Promise<Error | undefined> {
	if (failure instanceof pg.DatabaseError && failure.severity !== 'ERROR') return failure
	if (failure !== undefined) {
		const probe = await client.query('').then(
			() => undefined,
			(error: unknown) => (error instanceof Error ? error : new Error(String(error))),
		)
		if (probe) return probe
	}
	return client.getTransactionStatus() === 'I' ? undefined : new Error('connection left in a transaction block')
}

function createPostgresDatabase(url: string, poolSize = DEFAULT_POOL_SIZE): Database {
	const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes })
	// An idle client that loses its connection (server restart, network) emits
	// 'error' on the pool; unhandled, that would crash the process. The pool
	// discards the client and the next query connects afresh.
	pool.on('error', () => {})

	/**
	 * fn on a pooled connection, which goes back to the pool only if it is
	 * still good (unusable() says when not). So a call the server merely
	 * refused (a raised error-..., a unique violation) keeps its connection
	 * and does not cost a new server process, as with pool.query, which
	 * discards the connection on any error. While the connection is out, an
	 * 'error' its client emits (the connection dropped) is heard here, as
	 * pool.query hears it: unheard, it would end the process.
	 */
	const borrow = async <R>(fn: (client: pg.PoolClient) => Promise<R>): Promise<R> => {
		const client = await pool.connect()
		let lost: Error | undefined
		const onError = (error: Error) => {
			lost = error
		}
		client.on('error', onError)
		let failure: unknown
		try {
			return await fn(client)
		} catch (error) {
			failure = error
			throw error
		} finally {
			// Still listening while unusable() waits on the server: lost may be set then too.
			const reason = lost ? undefined : await unusable(client, failure)
			client.off('error', onError)
			client.release(lost ?? reason)
		}
	}

	return {
		kind: 'postgres',
		poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
		query<T>(text: string, params?: unknown[]) {
			return borrow((client) => client.query(text, params)).then((result) => pgResult<T>(result))
		},
		transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
			return borrow(async (client) => {
				try {
					// One simple query: the transaction block BEGIN opens outlasts it.
					await client.query(options?.setup ? `begin; ${options.setup}` : 'begin')
					const value = await fn({
						async query<R>(text: string, params?: unknown[]) {
							const result = await client.query(text, params)
							return pgResult<R>(result)
						},
						async exec(sql: string) {
							await client.query(sql)
						},
					})
					const commit = await client.query('commit')
					// COMMIT of a transaction that hit an error (fn caught it and went
					// on) is answered with ROLLBACK, not an error: nothing was saved.
					if (commit.command === 'ROLLBACK') throw new TransactionRolledBackError()
					return value
				} catch (error) {
					// A rollback that fails leaves the connection in its transaction
					// block, and borrow() then discards it.
					await client.query('rollback').catch(() => {})
					throw error
				}
			})
		},
		async statement<T>(text: string, params: readonly unknown[], options?: TransactionOptions) {
			// Several statements in one simple query run as one implicit
			// transaction: setup's transaction-local settings hold for the
			// statement, and an error rolls all of it back.
			const sql = `${options?.setup ? `${options.setup}; ` : ''}${inlineParameters(text, params)}`
			const results = (await borrow((client) => client.query(sql))) as unknown as pg.QueryResult | pg.QueryResult[]
			return pgResult<T>(Array.isArray(results) ? results[results.length - 1]! : results)
		},
		exec(sql: string) {
			// SQL that opened its own transaction (BEGIN inside the text) and
			// failed leaves its connection in the block: borrow() discards it.
			return borrow(async (client) => {
				await client.query(sql)
			})
		},
		async close() {
			if (!pool.ended) await pool.end()
		},
	}
}

export class TransactionRolledBackError extends Error {
	constructor() {
		super('The transaction was rolled back because a statement inside it failed')
		this.name = 'TransactionRolledBackError'
	}
}

// ---------------------------------------------------------------------------
// Errors the user should see
// ---------------------------------------------------------------------------

/**
 * A refusal the user should be told about. `code` is an `error-...` message
 * with a translation under `errors.<code>` (docs/product.md §12.1); anything that is
 * not a DbError is an unexpected failure and shows the unknown-error text.
 */
export class DbError extends Error {
	readonly code: `error-${string}`
	constructor(code: `error-${string}`, options?: { cause?: unknown }) {
		super(code, options)
		this.name = 'DbError'
		this.code = code
	}
}

const APP_ERROR_MESSAGE = /^error-[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * Constraint violations that a user can cause with valid-looking input, by
 * constraint (or unique index) name. Everything else stays unexpected.
 */
const CONSTRAINT_ERRORS: Readonly<Record<string, `error-${string}`>> = {
	profiles_username_key: 'error-username-taken',
	profiles_username_format: 'error-invalid-username',
	wallets_balance_not_negative: 'error-insufficient-funds',
	sessions_one_active_per_creator: 'error-session-already-active',
	sessions_one_active_per_channel: 'error-channel-already-live',
	creator_profiles_twitch_channel_key: 'error-channel-taken',
	creator_profiles_youtube_channel_key: 'error-channel-taken',
	creator_profiles_kick_channel_key: 'error-channel-taken',
}

interface PostgresErrorFields {
	message: string
	code: string
	constraint?: string
}

function isPostgresError(error: unknown): error is PostgresErrorFields {
	// Both drivers' DatabaseError carry the SQLSTATE in `code` (5 characters).
	if (!(error instanceof Error)) return false
	const code: unknown = (error as Error & { code?: unknown }).code
	return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}

/**
 * Map a database error to a DbError: a function's `raise exception
 * 'error-...'` (any SQLSTATE; our functions use P0001) keeps its message as
 * the code, and the constraint violations listed above get theirs. Returns
 * null for anything else (and for non-database errors), which callers treat
 * as unknown. A DbError passes through unchanged.
 */
export function toAppError(error: unknown): DbError | null {
	if (error instanceof DbError) return error
	if (!isPostgresError(error)) return null
	if (APP_ERROR_MESSAGE.test(error.message)) return new DbError(error.message as `error-${string}`, { cause: error })
	if ((error.code === '23505' || error.code === '23514') && error.constraint) {
		const code = CONSTRAINT_ERRORS[error.constraint]
		if (code) return new DbError(code, { cause: error })
	}
	return null
}
