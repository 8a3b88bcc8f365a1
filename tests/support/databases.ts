import { randomUUID } from 'node:crypto'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, inject } from 'vitest'
import { createDatabase, createPGliteDatabase, toAppError, type Database, type Queryable } from '#app/db/database.server'
import type { JwtClaims } from '#app/db/as-user.server'
import { migrate } from '#app/db/migrate.server'

/**
 * Real databases for SQL tests: every suite registered with
 * describeEachDatabase runs once on PGlite and, when TEST_DATABASE_URL is set
 * (a superuser URL to a Postgres server), once more on that server. Each test
 * starts from a database as the migrations (local platform) leave it:
 *
 *  - PGlite: the file opens one in-memory database, migrated (from the
 *    run's snapshot); before every test after the first, its data goes back
 *    to what the migrations left (restoreDataSql), or, after a test that
 *    changed the schema, every schema is dropped and migrated again
 *    (RESET_PGLITE).
 *  - Postgres: the file migrates a template database once and works in a
 *    copy of it; before every test after the first, whatever is still
 *    connected to the copy is disconnected and its data goes back the same
 *    way, or, after a test that changed the schema, the copy is made again.
 */

export type DatabaseKind = 'pglite' | 'postgres'

export const DATABASE_KINDS: readonly DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

interface Provider {
	create(): Promise<{ db: Database; dispose(): Promise<void> }>
	destroy(): Promise<void>
}

// One provider per kind per test file (Vitest isolates modules per file).
const providers = new Map<DatabaseKind, Promise<Provider>>()
let cleanupRegistered = false

function provider(kind: DatabaseKind): Promise<Provider> {
	let p = providers.get(kind)
	if (!p) {
		p = kind === 'pglite' ? pgliteProvider() : postgresProvider(requiredUrl())
		providers.set(kind, p)
	}
	return p
}

function requiredUrl(): string {
	const url = process.env.TEST_DATABASE_URL
	if (!url) throw new Error('TEST_DATABASE_URL is not set')
	return url
}

/**
 * Drops every schema and migrates again (~0.4 s on PGlite): the reset after a
 * test that changed the schema itself (see restoreDataSql). What survives is
 * only what lives outside schemas (roles, database settings), which the
 * migrations create idempotently and no test changes; DISCARD ALL resets the
 * session.
 */
const RESET_PGLITE = `
	do $$
	declare
		s text;
	begin
		for s in
			select nspname from pg_namespace
			where nspname not like 'pg\\_%' and nspname <> 'information_schema'
		loop
			execute format('drop schema %I cascade', s);
		end loop;
	end
	$$;
	-- What outlives the schemas: the migration role's default privileges
	-- (global ones, such as the privileges migration's revoke of EXECUTE from
	-- PUBLIC) and its grants on the database. A new database has neither.
	drop owned by app_owner;
	create schema public authorization pg_database_owner;
	grant usage on schema public to public;
`

/**
 * A fingerprint of the schema and of the database's own settings: each
 * catalog's row count and newest row version. DDL, GRANT, REVOKE, COMMENT,
 * a large object, ALTER DATABASE ... SET or a role's change that a test
 * makes (and does not roll back) adds or removes catalog rows or writes a
 * newer version of one, so a test that changed more than table data is
 * never mistaken for one that did not. Every catalog of the database is
 * counted (the server's version decides which there are) except the
 * planner's statistics, plus the shared ones about this database and roles.
 */
async function fingerprintQuery(db: SqlClient): Promise<string> {
	const { rows } = await db.query<{ name: string }>(`
		select relname as name from pg_class
		where relnamespace = 'pg_catalog'::regnamespace and relkind = 'r'
			and (not relisshared or relname in ('pg_authid', 'pg_auth_members', 'pg_db_role_setting', 'pg_database'))
			and relname not in ('pg_statistic', 'pg_statistic_ext_data', 'pg_largeobject')
		order by 1`)
	const scans = rows.map(({ name }) => {
		const where = name === 'pg_database' ? 'where datname = current_database()' : ''
		return `select '${name}' as catalog, count(*) as rows, coalesce(max(xmin::text::bigint), 0) as newest from pg_catalog.${name} ${where}`
	})
	return `select string_agg(format('%s %s %s', catalog, rows, newest), ', ' order by catalog) as fingerprint from (${scans.join(' union all ')}) catalogs`
}

const fingerprintQueries = new WeakMap<SqlClient, Promise<string>>()

async function schemaFingerprint(db: SqlClient): Promise<string> {
	let query = fingerprintQueries.get(db)
	if (!query) fingerprintQueries.set(db, (query = fingerprintQuery(db)))
	const { rows } = await db.query<{ fingerprint: string }>(await query)
	return rows[0]!.fingerprint
}

/**
 * SQL that puts every table's rows and every sequence back as the migrations
 * left them (~60 ms on PGlite, against ~0.4 s for RESET_PGLITE): every table
 * truncated, the migrations' own rows (settings, system accounts, documents)
 * inserted again, every sequence set back. Triggers (an append-only ledger
 * refuses TRUNCATE) and foreign keys are off while it runs, as for a restore.
 */
async function restoreDataSql(db: SqlClient): Promise<string> {
	const { rows: tables } = await db.query<{ name: string; columns: string }>(`
		select format('%I.%I', n.nspname, c.relname) as name,
			(select string_agg(quote_ident(a.attname), ', ' order by a.attnum) from pg_attribute a
			 where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns
		from pg_class c join pg_namespace n on n.oid = c.relnamespace
		where c.relkind = 'r' and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
		order by 1`)
	const inserts: string[] = []
	for (const table of tables) {
		const { rows } = await db.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${table.name} t`)
		const json = rows[0]?.rows
		if (json) {
			inserts.push(`insert into ${table.name} (${table.columns}) overriding system value
				select ${table.columns} from json_populate_recordset(null::${table.name}, ${quoteLiteral(json)});`)
		}
	}
	const { rows: sequences } = await db.query<{ name: string }>(`
		select format('%I.%I', n.nspname, c.relname) as name
		from pg_class c join pg_namespace n on n.oid = c.relnamespace
		where c.relkind = 'S' and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'`)
	const setvals: string[] = []
	for (const { name } of sequences) {
		const { rows } = await db.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${name}`)
		setvals.push(`select setval(${quoteLiteral(name)}, ${rows[0]!.last_value}, ${rows[0]!.is_called});`)
	}
	return [
		'set session_replication_role = replica;',
		tables.length > 0 ? `truncate ${tables.map((t) => t.name).join(', ')};` : '',
		...inserts,
		...setvals,
		'reset session_replication_role;',
	].join('\n')
}

/** What restoreDataSql and schemaFingerprint need: the app's Database or a pg.Client of a test's own. */
interface SqlClient {
	query<T extends pg.QueryResultRow>(text: string): Promise<{ rows: T[] }>
}

function quoteLiteral(text: string): string {
	return `'${text.replaceAll("'", "''")}'`
}

/**
 * One PGlite instance per file, from the run's migrated snapshot
 * (tests/setup/pglite-snapshot.ts) when there is one. Before every test after
 * the first, the data goes back to what the migrations left; a test that
 * changed the schema gets the full reset instead.
 */
async function pgliteProvider(): Promise<Provider> {
	const snapshot = inject('pgliteSnapshot')
	const db = await createPGliteDatabase(undefined, snapshot ? { loadDataDir: new Blob([await readFile(snapshot)]) } : {})
	// The snapshot is migrated already (made from the same migrations at the start of this run or rerun).
	if (!snapshot) await migrate(db, { platform: 'local' })
	let restore = await restoreDataSql(db)
	let fingerprint = await schemaFingerprint(db)
	let dirty = false
	return {
		async create() {
			if (dirty) {
				await db.exec('discard all')
				if ((await schemaFingerprint(db)) === fingerprint) {
					await db.exec(restore)
				} else {
					await db.exec(RESET_PGLITE)
					await migrate(db, { platform: 'local' })
					restore = await restoreDataSql(db)
				}
				// TRUNCATE gives each table a new file, a new row version in pg_class.
				fingerprint = await schemaFingerprint(db)
			}
			dirty = true
			return { db, dispose: async () => {} }
		},
		destroy: () => db.close(),
	}
}

async function postgresProvider(adminUrl: string): Promise<Provider> {
	const admin = new pg.Pool({ connectionString: adminUrl, max: 2 })
	admin.on('error', () => {})
	const urlFor = (database: string) => {
		const url = new URL(adminUrl)
		url.pathname = `/${database}`
		return url.toString()
	}
	const id = randomUUID().replaceAll('-', '').slice(0, 16)
	const templateName = `dareboost_test_tpl_${id}`
	const name = `dareboost_test_${id}`
	await admin.query(`create database "${templateName}"`)
	const template = await createDatabase({ url: urlFor(templateName), poolSize: 1 })
	try {
		await migrate(template, { platform: 'local' })
	} finally {
		// CREATE DATABASE ... TEMPLATE refuses while anyone is connected to it.
		await template.close()
	}

	// The file's database, a copy of the template, and a connection that resets it between tests.
	let keeper: pg.Client
	let restore: string
	let fingerprint: string
	async function copyTemplate() {
		await admin.query(`drop database if exists "${name}" with (force)`)
		await admin.query(`create database "${name}" template "${templateName}"`)
		keeper = new pg.Client({ connectionString: urlFor(name) })
		keeper.on('error', () => {})
		await keeper.connect()
		restore = await restoreDataSql(keeper)
		fingerprint = await schemaFingerprint(keeper)
	}
	await copyTemplate()

	let dirty = false
	return {
		async create() {
			if (dirty) {
				// Whatever the test left connected (a server, a connection of its own) goes first: its locks with it.
				// Each waited for (up to 5 s): a connection still committing would otherwise commit after the reset.
				await keeper.query('select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
				if ((await schemaFingerprint(keeper)) === fingerprint) {
					await keeper.query(restore)
					fingerprint = await schemaFingerprint(keeper)
				} else {
					await keeper.end()
					await copyTemplate()
				}
			}
			dirty = true
			const db = await createDatabase({ url: urlFor(name), poolSize: 4 })
			return { db, dispose: () => db.close() }
		},
		async destroy() {
			await keeper.end().catch(() => {})
			await admin.query(`drop database if exists "${name}" with (force)`)
			await admin.query(`drop database if exists "${templateName}" with (force)`)
			await admin.end()
		},
	}
}

/**
 * A database with nothing applied (for migration tests); the caller disposes
 * it. `url` is set for Postgres so a test can open more connections to it.
 */
export async function createEmptyDatabase(
	kind: DatabaseKind,
): Promise<{ db: Database; url?: string; dispose(): Promise<void> }> {
	if (kind === 'pglite') {
		const db = await createPGliteDatabase()
		return { db, dispose: () => db.close() }
	}
	const adminUrl = requiredUrl()
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	const name = `dareboost_test_empty_${randomUUID().replaceAll('-', '').slice(0, 16)}`
	await admin.query(`create database "${name}"`)
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	const db = await createDatabase({ url: url.toString(), poolSize: 4 })
	return {
		db,
		url: url.toString(),
		async dispose() {
			await db.close()
			await admin.query(`drop database if exists "${name}" with (force)`)
			await admin.end()
		},
	}
}

/**
 * Register `body` once per available database kind, as a suite named
 * `<name> [<kind>]`. `getDb()` returns the current test's fresh database.
 */
export function describeEachDatabase(name: string, body: (getDb: () => Database, kind: DatabaseKind) => void): void {
	if (!cleanupRegistered) {
		// Registered at file level on first use, so templates outlive every
		// suite of the file and are dropped once at its end.
		cleanupRegistered = true
		afterAll(async () => {
			const all = [...providers.values()]
			providers.clear()
			for (const p of all) await (await p).destroy()
		})
	}
	for (const kind of DATABASE_KINDS) {
		describe(`${name} [${kind}]`, () => {
			let current: { db: Database; dispose(): Promise<void> } | undefined
			beforeAll(async () => {
				await provider(kind)
			})
			beforeEach(async () => {
				current = await (await provider(kind)).create()
			})
			afterEach(async () => {
				const c = current
				current = undefined
				await c?.dispose()
			})
			body(() => {
				if (!current) throw new Error('getDb() is only available inside a test')
				return current.db
			}, kind)
		})
	}
}

// ---------------------------------------------------------------------------
// Helpers for tests
// ---------------------------------------------------------------------------

/** Create an account the way the auth layer does (owner connection); its wallet comes from the trigger. */
export async function createAuthUser(db: Queryable, email = `${randomUUID()}@test.local`): Promise<string> {
	const { rows } = await db.query<{ id: string }>(
		`insert into auth.users (id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
		 values (gen_random_uuid(), 'authenticated', 'authenticated', $1, now(), '{}', '{}', now(), now())
		 returning id`,
		[email],
	)
	const id = rows[0]?.id
	if (!id) throw new Error('createAuthUser: no id returned')
	return id
}

export function claimsFor(userId: string, extra: Partial<JwtClaims> = {}): JwtClaims {
	return { ...extra, sub: userId, role: 'authenticated' }
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: string; constraint?: string }> {
	try {
		await promise
	} catch (error) {
		if (error instanceof Error) return error
		throw new Error(`rejected with a non-Error: ${String(error)}`)
	}
	throw new Error('expected a rejection, but it resolved')
}

/** The `error-...` code of a refused call (or Postgres's SQLSTATE, such as 42501 for a missing privilege). */
export async function errorOf(promise: Promise<unknown>): Promise<string | undefined> {
	const error = await rejectionOf(promise)
	return toAppError(error)?.code ?? error.code
}

/**
 * Apply `sql` as one more migration after supabase/migrations, exactly as
 * they are applied (on the local platform: as the migration role). Rejects
 * like migrate() when the SQL fails.
 */
export async function applyMigration(db: Database, sql: string): Promise<void> {
	const dir = await mkdtemp(path.join(tmpdir(), 'dareboost-migration-'))
	try {
		await cp(path.join(process.cwd(), 'supabase'), dir, { recursive: true })
		await mkdir(path.join(dir, 'migrations'), { recursive: true })
		await writeFile(path.join(dir, 'migrations', '29991231000000_extra.sql'), sql)
		await migrate(db, { platform: 'local', dir })
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}

/**
 * A connection of its own to a Postgres test database (TEST_DATABASE_URL's
 * server), for concurrency tests that hold transactions open across steps.
 * The caller ends it.
 */
export async function openConnection(db: Queryable): Promise<pg.Client> {
	const client = new pg.Client({ connectionString: await connectionUrl(db) })
	await client.connect()
	return client
}

/** The URL of a Postgres test database (TEST_DATABASE_URL's server), for a pool or connection of a test's own. */
export async function connectionUrl(db: Queryable): Promise<string> {
	const { rows } = await db.query<{ db: string }>('select current_database() as db')
	const url = new URL(process.env.TEST_DATABASE_URL!)
	url.pathname = `/${rows[0]!.db}`
	return url.toString()
}
