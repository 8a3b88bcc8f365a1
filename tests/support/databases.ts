import { randomUUID } from 'node:crypto'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest'
import { createDatabase, createPGliteDatabase, toAppError, type Database, type Queryable } from '#app/db/database.server'
import type { JwtClaims } from '#app/db/as-user.server'
import { migrate } from '#app/db/migrate.server'

/**
 * Real databases for SQL tests: every suite registered with
 * describeEachDatabase runs once on PGlite and, when TEST_DATABASE_URL is set
 * (a superuser URL to a Postgres server), once more on that server. Each test
 * gets a database of its own, migrated (local platform) and otherwise empty:
 *
 *  - PGlite: the file migrates one in-memory database; before every test
 *    after the first, every schema is dropped and the migrations run again
 *    (see RESET_PGLITE).
 *  - Postgres: the file migrates a template database once, and every test
 *    gets `create database ... template` of it, dropped afterwards.
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
 * Drops every schema a test could have touched and migrates again: on one
 * PGlite instance that takes ~50 ms, against ~350 ms (and tens of MB of
 * WebAssembly memory) for a new instance per test. What survives is only what
 * lives outside schemas (roles, database settings), which the migrations
 * create idempotently and no test changes; DISCARD ALL resets the session.
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

async function pgliteProvider(): Promise<Provider> {
	const db = await createPGliteDatabase()
	await migrate(db, { platform: 'local' })
	let dirty = false
	return {
		async create() {
			if (dirty) {
				await db.exec('discard all')
				await db.exec(RESET_PGLITE)
				await migrate(db, { platform: 'local' })
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
	const templateName = `dareboost_test_tpl_${randomUUID().replaceAll('-', '').slice(0, 16)}`
	await admin.query(`create database "${templateName}"`)
	const template = await createDatabase({ url: urlFor(templateName), poolSize: 1 })
	try {
		await migrate(template, { platform: 'local' })
	} finally {
		// CREATE DATABASE ... TEMPLATE refuses while anyone is connected to it.
		await template.close()
	}
	return {
		async create() {
			const name = `dareboost_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`
			await admin.query(`create database "${name}" template "${templateName}"`)
			const db = await createDatabase({ url: urlFor(name), poolSize: 4 })
			return {
				db,
				async dispose() {
					await db.close()
					await admin.query(`drop database if exists "${name}" with (force)`)
				},
			}
		},
		async destroy() {
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
