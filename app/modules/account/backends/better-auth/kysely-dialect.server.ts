import {
	CompiledQuery,
	DeleteQueryNode,
	InsertQueryNode,
	MergeQueryNode,
	PostgresAdapter,
	PostgresIntrospector,
	PostgresQueryCompiler,
	UpdateQueryNode,
	type DatabaseConnection,
	type DatabaseIntrospector,
	type Dialect,
	type DialectAdapter,
	type Driver,
	type Kysely,
	type QueryCompiler,
	type QueryResult,
	type TransactionSettings,
} from 'kysely'
import type { Database, Queryable } from '#app/db/database.server'

/**
 * A Kysely dialect over the app's own `Database` (app/db/database.server.ts),
 * so Better Auth runs on the very connection pool (node-postgres) or PGlite
 * instance the rest of the app uses, with the same type parsers, instead of a
 * second pool of its own.
 *
 * Kysely drives transactions imperatively (BEGIN on a connection, queries,
 * COMMIT later), while `Database.transaction` takes a callback: this driver
 * bridges the two by opening `db.transaction` on BEGIN and keeping its
 * callback pending until Kysely commits or rolls back. On PGlite that matters:
 * its single connection is serialised by `Database`, so a transaction must go
 * through `Database.transaction` (a raw BEGIN through `db.query` would let any
 * other caller's statements run inside it).
 *
 * One rule follows from PGlite's single connection: while a Kysely
 * transaction is open, every statement of the same logical operation must go
 * through that transaction. Better Auth honours this (its internal adapter
 * resolves the transaction's adapter from AsyncLocalStorage); code of ours
 * that runs inside Better Auth hooks must not call `db` directly.
 */
export class AppDatabaseDialect implements Dialect {
	readonly #db: Database

	constructor(db: Database) {
		this.#db = db
	}

	createAdapter(): DialectAdapter {
		return new PostgresAdapter()
	}

	createDriver(): Driver {
		return new AppDatabaseDriver(this.#db)
	}

	createQueryCompiler(): QueryCompiler {
		return new PostgresQueryCompiler()
	}

	createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
		return new PostgresIntrospector(db)
	}
}

class AppDatabaseDriver implements Driver {
	readonly #db: Database

	constructor(db: Database) {
		this.#db = db
	}

	async init(): Promise<void> {}

	async acquireConnection(): Promise<DatabaseConnection> {
		// A connection is only a handle: outside a transaction each statement
		// borrows a pooled client (or queues on PGlite) through `db.query`.
		return new AppDatabaseConnection(this.#db)
	}

	async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
		await asAppConnection(connection).begin(settings)
	}

	async commitTransaction(connection: DatabaseConnection): Promise<void> {
		await asAppConnection(connection).end('commit')
	}

	async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
		await asAppConnection(connection).end('rollback')
	}

	async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
		await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`))
	}

	async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
		await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdentifier(name)}`))
	}

	async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
		await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdentifier(name)}`))
	}

	async releaseConnection(connection: DatabaseConnection): Promise<void> {
		// A connection released mid-transaction (a caller bug) must not leave
		// the transaction, and on PGlite the whole database, hanging.
		await asAppConnection(connection).end('rollback')
	}

	async destroy(): Promise<void> {
		// The database belongs to the app, which closes it; Kysely must not.
	}
}

/** Thrown into the pending `db.transaction` callback to make it roll back. */
class RollbackSignal extends Error {
	constructor() {
		super('rollback requested by Kysely')
		this.name = 'RollbackSignal'
	}
}

class AppDatabaseConnection implements DatabaseConnection {
	readonly #db: Database
	#tx: Queryable | null = null
	#finish: ((outcome: 'commit' | 'rollback') => void) | null = null
	#done: Promise<void> | null = null

	constructor(db: Database) {
		this.#db = db
	}

	async begin(settings: TransactionSettings): Promise<void> {
		if (this.#done) throw new Error('a transaction is already open on this connection')
		const opened = deferred<void>()
		const outcome = deferred<'commit' | 'rollback'>()
		this.#finish = outcome.resolve
		this.#done = this.#db
			.transaction(async (tx) => {
				if (settings.isolationLevel || settings.accessMode) {
					const parts = [
						settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
						settings.accessMode ?? '',
					].filter(Boolean)
					await tx.query(`set transaction ${parts.join(' ')}`)
				}
				this.#tx = tx
				opened.resolve()
				if ((await outcome.promise) === 'rollback') throw new RollbackSignal()
			})
			.catch((error: unknown) => {
				if (error instanceof RollbackSignal) return
				throw error
			})
			.finally(() => {
				this.#tx = null
				this.#finish = null
				this.#done = null
			})
		// BEGIN itself can fail (no connection): report it from begin(), not later.
		await Promise.race([opened.promise, this.#done])
		if (!this.#tx) throw new Error('the transaction could not be opened')
	}

	/** COMMIT or ROLLBACK; a no-op outside a transaction. A failed COMMIT rejects. */
	async end(outcome: 'commit' | 'rollback'): Promise<void> {
		const done = this.#done
		if (!done || !this.#finish) return
		this.#finish(outcome)
		await done
	}

	async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
		const target: Queryable = this.#tx ?? this.#db
		const result = await target.query<R>(compiledQuery.sql, [...compiledQuery.parameters])
		// As Kysely's own PostgresDriver: the command tag's count is the number
		// of affected rows for data-modifying statements (Better Auth reads it
		// for updateMany/deleteMany).
		const modifying = result.command
			? ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(result.command)
			: isModifyingNode(compiledQuery)
		return {
			rows: result.rows,
			...(modifying && result.rowCount !== undefined ? { numAffectedRows: BigInt(result.rowCount) } : {}),
		}
	}

	// eslint-disable-next-line require-yield -- the interface demands a generator; streaming is not offered
	async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
		throw new Error('streaming queries are not supported by the app database dialect')
	}
}

function asAppConnection(connection: DatabaseConnection): AppDatabaseConnection {
	if (!(connection instanceof AppDatabaseConnection)) throw new TypeError('not a connection of this driver')
	return connection
}

function isModifyingNode(compiledQuery: CompiledQuery): boolean {
	const node = compiledQuery.query
	return InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node) || MergeQueryNode.is(node)
}

function quoteIdentifier(name: string): string {
	return `"${name.replaceAll('"', '""')}"`
}

/** Promise.withResolvers, which Node 20 lacks. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve!: (value: T) => void
	const promise = new Promise<T>((r) => {
		resolve = r
	})
	return { promise, resolve }
}
