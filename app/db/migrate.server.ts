import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { maintainMessagePartitions } from '#app/modules/realtime/partitions.server'
import { ADVISORY_LOCKS } from './advisory-locks'
import type { Database, Transaction } from './database.server'

export interface MigrateOptions {
	/**
	 * `local`: PGlite or a plain Postgres server; supabase/local-shim/*.sql
	 * first provides what Supabase would (roles, auth, realtime).
	 * `supabase`: a Supabase project's database; migrations only.
	 */
	platform: 'local' | 'supabase'
	log?: (line: string) => void
	/** The supabase/ folder; default `<process.cwd()>/supabase` (the app runs from the project root). */
	dir?: string
}

export interface MigrationFile {
	/** The timestamp prefix, as the Supabase CLI records it. */
	version: string
	/** The rest of the file name without `.sql`. */
	name: string
	file: string
}


/** Supabase CLI's migration file name: `<digits>_<name>.sql`. */
const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/

/**
 * Bring the database up to date: on `local`, run the local-shim files as the
 * connecting role, in one transaction, when they differ from those last
 * applied (they are idempotent, but lock what they change), then apply each
 * supabase/migrations file (as app_owner on `local`) not
 * yet recorded in supabase_migrations.schema_migrations (the Supabase CLI's
 * own table, so `supabase db push` and this agree on what is applied), in
 * file name order, each in its own transaction together with its record.
 * Returns the versions applied by this call.
 */
export async function migrate(db: Database, options: MigrateOptions): Promise<string[]> {
	const dir = options.dir ?? path.join(process.cwd(), 'supabase')
	const log = options.log ?? (() => {})

	await locked(db, (tx) =>
		tx.exec(`
			create schema if not exists supabase_migrations;
			create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
			alter table supabase_migrations.schema_migrations add column if not exists statements text[];
			alter table supabase_migrations.schema_migrations add column if not exists name text;
			create table if not exists supabase_migrations.local_shim (hash text not null, applied_at timestamptz not null default now());
		`),
	)

	if (options.platform === 'local') {
		// The shim is idempotent, but its DDL locks auth.* and realtime.*
		// exclusively, and an instance starting beside others that serve
		// requests must not (a boost's account check waited on it, or
		// deadlocked): it runs only when its files differ from the ones last
		// applied, recorded by their hash.
		const files = await listSqlFiles(path.join(dir, 'local-shim'))
		const sources = await Promise.all(files.map((file) => readFile(path.join(dir, 'local-shim', file), 'utf8')))
		const hash = createHash('sha256').update(JSON.stringify([files, sources])).digest('hex')
		await locked(db, async (tx) => {
			const { rows } = await tx.query<{ hash: string }>('select hash from supabase_migrations.local_shim')
			if (rows[0]?.hash === hash) return
			log('applying the local shim')
			for (const [i, file] of files.entries()) {
				await tx.exec(sources[i]!).catch((error: unknown) => {
					throw new Error(`local shim ${file} failed: ${errorMessage(error)}`, { cause: error })
				})
			}
			await tx.query('delete from supabase_migrations.local_shim')
			await tx.query('insert into supabase_migrations.local_shim (hash) values ($1)', [hash])
		})
		// realtime.messages' daily partitions, as Supabase's Realtime server
		// makes them when a project connects (the relay keeps them after).
		await maintainMessagePartitions(db)
	}

	const applied: string[] = []
	for (const migration of await listMigrations(path.join(dir, 'migrations'), log)) {
		const sql = await readFile(path.join(dir, 'migrations', migration.file), 'utf8')
		const didApply = await locked(db, async (tx) => {
			// Checked under the lock: another process may have applied it while
			// this one waited.
			const { rows } = await tx.query('select 1 from supabase_migrations.schema_migrations where version = $1', [
				migration.version,
			])
			if (rows.length > 0) return false
			log(`applying migration ${migration.file}`)
			// Locally, as the stand-in for Supabase's `postgres` (not a superuser,
			// owning neither auth nor realtime; supabase/local-shim/000_roles.sql),
			// so a migration that would fail under `supabase db push` fails here.
			if (options.platform === 'local') await tx.query('set local role app_owner')
			await tx.exec(sql)
			if (options.platform === 'local') await tx.query('reset role')
			await tx.query(
				'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
				[migration.version, migration.name, [sql]],
			)
			return true
		}).catch((error: unknown) => {
			throw new Error(`migration ${migration.file} failed: ${errorMessage(error)}`, { cause: error })
		})
		if (didApply) applied.push(migration.version)
	}
	return applied
}

/**
 * A readiness check: the versions of this build's migration files the
 * database has not recorded (none: the schema is what this build expects).
 * The files are listed once, at the first call.
 */
export function pendingMigrationsCheck(dir = path.join(process.cwd(), 'supabase')): (db: Database) => Promise<string[]> {
	let versions: Promise<string[]> | undefined
	return async (db) => {
		versions ??= listMigrations(path.join(dir, 'migrations')).then((files) => files.map((f) => f.version))
		const wanted = await versions
		const { rows } = await db.query<{ version: string }>(
			`select w.version from unnest($1::text[]) as w(version)
			 where not exists (select 1 from supabase_migrations.schema_migrations m where m.version = w.version)`,
			[wanted],
		)
		return rows.map((r) => r.version)
	}
}

/** The migration files of a supabase/migrations folder, in the order they apply. */
export async function listMigrations(migrationsDir: string, log: (line: string) => void = () => {}): Promise<MigrationFile[]> {
	const migrations: MigrationFile[] = []
	const seen = new Map<string, string>()
	for (const file of await listSqlFiles(migrationsDir)) {
		const match = MIGRATION_FILE.exec(file)
		if (!match?.[1] || !match[2]) {
			// The Supabase CLI skips such files too; say so rather than silently.
			log(`skipping ${file}: not named <timestamp>_<name>.sql`)
			continue
		}
		const other = seen.get(match[1])
		if (other) throw new Error(`migrations ${other} and ${file} share the version ${match[1]}`)
		seen.set(match[1], file)
		migrations.push({ version: match[1], name: match[2], file })
	}
	return migrations
}

async function listSqlFiles(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true })
	return entries
		.filter((entry) => entry.isFile() && entry.name.endsWith('.sql'))
		.map((entry) => entry.name)
		.sort()
}

/**
 * One lock for every migrate() on a database, so that two app instances
 * starting together (or an instance and `npm run db:migrate`) apply each
 * migration once, one after the other. Transaction-scoped: a crash releases it.
 */
function locked<T>(db: Database, fn: (tx: Transaction) => Promise<T>): Promise<T> {
	return db.transaction(async (tx) => {
		await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.migrations])
		return fn(tx)
	})
}

function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error)
}
