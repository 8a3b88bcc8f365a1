/**
 * `npm run db:diff`: do supabase/schemas (the current definition of every
 * table, policy, grant and function, one file per domain) and
 * supabase/migrations (what a deployed database has applied) describe the
 * same database? (ADR 047)
 *
 * Builds two scratch databases on the Postgres server at TEST_DATABASE_URL
 * (or DATABASE_URL; an admin URL that may create databases): one from the
 * local shim and every migration, as `npm run db:migrate` does, the other from
 * the local shim and the schema files in the order supabase/config.toml's
 * `schema_paths` gives; then compares them with @pgkit/migra, privileges
 * included.
 *
 *   npm run db:diff -- --check          exit 0 when they agree; else print the difference, exit 1
 *   npm run db:diff -- --name add_votes write the difference as the next migration
 *                                       (supabase/migrations/<timestamp>_add_votes.sql)
 *
 * The way to change the database: edit the schema file, run `npm run
 * db:diff -- --name <what>`, read (and comment) the migration it writes, and
 * commit both. CI runs the check.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { run as migra } from '@pgkit/migra'
import pg from 'pg'
import { createDatabase } from '../app/db/database.server'
import { listMigrations, migrate } from '../app/db/migrate.server'

/** The schema files in the order they apply: `<supabase>/config.toml`'s `[db.migrations] schema_paths`, as the Supabase CLI reads it. */
export function schemaFiles(supabaseDir: string): string[] {
	const config = readFileSync(join(supabaseDir, 'config.toml'), 'utf8')
	const list = /^schema_paths\s*=\s*\[([^\]]*)\]/m.exec(config)?.[1]
	if (!list) throw new Error('supabase/config.toml has no [db.migrations] schema_paths')
	return [...list.matchAll(/"([^"]+)"/g)].map((m) => resolve(supabaseDir, m[1]!))
}

async function scratch(admin: string, name: string, build: (url: string) => Promise<void>): Promise<string> {
	const client = new pg.Client({ connectionString: admin })
	await client.connect()
	await client.query(`drop database if exists ${name}`)
	await client.query(`create database ${name}`)
	await client.end()
	const url = new URL(admin)
	url.pathname = `/${name}`
	await build(url.toString())
	return url.toString()
}

async function dropDatabases(admin: string, names: string[]) {
	const client = new pg.Client({ connectionString: admin })
	await client.connect()
	for (const name of names) await client.query(`drop database if exists ${name} with (force)`)
	await client.end()
}

/** The shim, then `dir`'s migrations, as the app applies them (as app_owner). */
async function apply(url: string, dir: string) {
	const db = await createDatabase({ url, poolSize: 1 })
	try {
		await migrate(db, { platform: 'local', dir })
	} finally {
		await db.close()
	}
}

/**
 * What migra does not compare, read from pg_catalog: the privileges on
 * functions, schemas and sequences, default privileges, comments, and each
 * function's owner, security and settings; with tables' privileges, row level
 * security, policies and triggers for good measure. One line per fact, so two
 * databases differ exactly where their lines do.
 */
const FACTS = `
with recursive ns as (
  select oid, nspname from pg_namespace
  where nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations') and nspname not like 'pg_temp%' and nspname not like 'pg_toast_temp%'
)
select 'schema ' || ns.nspname || ' owner ' || pg_get_userbyid(n.nspowner) || ' acl ' || pg_temp.acl(n.nspacl) || ' comment ' || coalesce(obj_description(n.oid, 'pg_namespace'), '-')
from ns join pg_namespace n on n.oid = ns.oid
union all
select 'function ' || ns.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
  || ' owner ' || pg_get_userbyid(p.proowner) || ' acl ' || pg_temp.acl(p.proacl)
  || ' definer ' || p.prosecdef || ' volatile ' || p.provolatile::text || ' config ' || coalesce(p.proconfig::text, '-')
  || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
from pg_proc p join ns on ns.oid = p.pronamespace
union all
select 'relation ' || ns.nspname || '.' || c.relname || ' kind ' || c.relkind::text || ' owner ' || pg_get_userbyid(c.relowner)
  || ' acl ' || pg_temp.acl(c.relacl) || ' rls ' || c.relrowsecurity || ' force ' || c.relforcerowsecurity
  || ' comment ' || coalesce(obj_description(c.oid, 'pg_class'), '-')
from pg_class c join ns on ns.oid = c.relnamespace
where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
union all
select 'column ' || ns.nspname || '.' || c.relname || '.' || a.attname || ' acl ' || pg_temp.acl(a.attacl) || ' comment ' || coalesce(col_description(c.oid, a.attnum), '-')
from pg_attribute a join pg_class c on c.oid = a.attrelid join ns on ns.oid = c.relnamespace
where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p', 'v') and (a.attacl is not null or col_description(c.oid, a.attnum) is not null)
union all
select 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd
  || ' using ' || coalesce(qual, '-') || ' check ' || coalesce(with_check, '-')
from pg_policies where schemaname in (select nspname from ns)
union all
select 'trigger ' || pg_get_triggerdef(t.oid) || ' enabled ' || t.tgenabled::text
from pg_trigger t join pg_class c on c.oid = t.tgrelid join ns on ns.oid = c.relnamespace
where not t.tgisinternal
union all
select 'default privileges ' || pg_get_userbyid(d.defaclrole) || ' in ' || coalesce(n.nspname, '*') || ' on ' || d.defaclobjtype::text || ' ' || pg_temp.acl(d.defaclacl)
from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
`

async function facts(url: string): Promise<Set<string>> {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		// An ACL's entries in a fixed order: the same grants made in another order are the same.
		await client.query(`create function pg_temp.acl(a aclitem[]) returns text language sql immutable as $$ select coalesce((select string_agg(x::text, ',' order by x::text) from unnest(a) x), '-') $$`)
		const { rows } = await client.query<{ '?column?': string }>(FACTS)
		return new Set(rows.map((r) => r['?column?']))
	} finally {
		await client.end()
	}
}

/** The facts only one side has, marked `-` (the migrations) and `+` (the schemas). */
function factsDiffer(fromMigrations: Set<string>, fromSchemas: Set<string>): string[] {
	const lines = [...fromMigrations].filter((f) => !fromSchemas.has(f)).map((f) => `- ${f}`)
	lines.push(...[...fromSchemas].filter((f) => !fromMigrations.has(f)).map((f) => `+ ${f}`))
	return lines.sort((a, b) => a.slice(2).localeCompare(b.slice(2)))
}

export interface SchemaDiff {
	/** migra's statements that take the migrations' database to the schemas'. */
	sql: string
	/** What migra does not write: `- fact` only the migrations have, `+ fact` only the schemas. */
	facts: string[]
}

/** Builds both databases on `admin`'s server from `supabaseDir` and compares them; drops them after. */
export async function diffSchemas(admin: string, supabaseDir: string): Promise<SchemaDiff> {
	// The schemas as one migration in a folder of its own, next to the same shim.
	const dir = mkdtempSync(join(tmpdir(), 'dareboost-schemas-'))
	symlinkSync(join(supabaseDir, 'local-shim'), join(dir, 'local-shim'))
	mkdirSync(join(dir, 'migrations'))
	// Function bodies are checked when they run, not when they are created,
	// so a file may name what a later file defines (pg_dump does the same).
	const schemas = ['set local check_function_bodies = off;', ...schemaFiles(supabaseDir).map((file) => readFileSync(file, 'utf8'))].join('\n')
	writeFileSync(join(dir, 'migrations', '00000000000000_schemas.sql'), schemas)

	const tag = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`
	const names = [`dareboost_diff_${tag}_migrations`, `dareboost_diff_${tag}_schemas`]
	try {
		const fromMigrations = await scratch(admin, names[0]!, (url) => apply(url, supabaseDir))
		const fromSchemas = await scratch(admin, names[1]!, (url) => apply(url, dir))
		const migration = await migra(fromMigrations, fromSchemas, { withPrivileges: true, unsafe: true, excludeSchema: ['supabase_migrations'] })
		return { sql: migration.sql.trim(), facts: factsDiffer(await facts(fromMigrations), await facts(fromSchemas)) }
	} finally {
		await dropDatabases(admin, names)
		rmSync(dir, { recursive: true, force: true })
	}
}

async function main() {
	const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, name: { type: 'string' } } })
	const admin = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
	if (!admin) throw new Error('db:diff needs a Postgres server: set TEST_DATABASE_URL (or DATABASE_URL) to a URL that may create databases')
	if (!values.check && !values.name) throw new Error('say --check, or --name <what the change does> to write the next migration')
	const supabaseDir = resolve('supabase')
	const { sql, facts: other } = await diffSchemas(admin, supabaseDir)
	if (other.length > 0 && (values.check || sql === '')) {
		console.log(`-- What migra does not write (privileges, comments, settings): - the migrations, + the schemas\n${other.map((l) => `-- ${l}`).join('\n')}\n`)
	}
	if (values.check) {
		if (sql === '' && other.length === 0) {
			console.log('db:diff: supabase/schemas and supabase/migrations agree')
			return
		}
		if (sql !== '') console.log(sql)
		console.error('\ndb:diff: supabase/schemas and supabase/migrations differ (above: what the migrations lack).')
		console.error('Change a schema file, then `npm run db:diff -- --name <what>` writes the migration.')
		process.exitCode = 1
		return
	}
	if (sql === '' && other.length > 0) {
		console.error('db:diff: only the lines above differ, and migra writes none of them: write the migration by hand.')
		process.exitCode = 1
		return
	}
	if (sql === '') {
		console.log('db:diff: nothing to write, the migrations already say what the schemas say')
		return
	}
	// Now, or just after the last migration when that one is dated later: the files apply in name order.
	const last = (await listMigrations(join(supabaseDir, 'migrations'))).at(-1)?.version ?? '0'
	const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
	const stamp = BigInt(now) > BigInt(last) ? now : String(BigInt(last) + 100n)
	const file = join(supabaseDir, 'migrations', `${stamp}_${values.name!.replace(/\W+/g, '_')}.sql`)
	writeFileSync(file, `-- Written by npm run db:diff from supabase/schemas: say here why.\n\n${sql}\n`)
	console.log(`db:diff: wrote ${file}`)
	// What migra does not write (a grant on a function, a comment) is still missing: say so.
	const after = await diffSchemas(admin, supabaseDir)
	if (after.sql !== '' || after.facts.length > 0) {
		console.error(`db:diff: the migration does not say all of it yet; add by hand:\n${[after.sql, ...after.facts].filter(Boolean).join('\n')}`)
		process.exitCode = 1
	}
}

// Run as a script (npm run db:diff), not when a test imports diffSchemas.
if (import.meta.url === `file://${process.argv[1]}`) {
	await main().catch((error: unknown) => {
		// A schema file that does not apply says which statement, without a stack.
		console.error(`db:diff: ${error instanceof Error ? error.message : String(error)}`)
		process.exitCode = 1
	})
}
