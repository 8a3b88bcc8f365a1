import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import { createDatabase } from '#app/db/database.server'
import { listMigrations, migrate } from '#app/db/migrate.server'
import { DEMO_COINS, DEMO_DARES, DEMO_PAYOUT_COINS, DEMO_SESSIONS, DEMO_USERS, seedDemoData } from '#app/db/seed.server'
import { applyMigration, claimsFor, createAuthUser, createEmptyDatabase, DATABASE_KINDS, describeEachDatabase } from '#tests/support/databases'

const migrationsDir = path.join(process.cwd(), 'supabase', 'migrations')

for (const kind of DATABASE_KINDS) {
	describe(`migrate() from scratch [${kind}]`, () => {
		test('applies every migration once and records it like the Supabase CLI', async () => {
			const { db, dispose } = await createEmptyDatabase(kind)
			try {
				const files = await listMigrations(migrationsDir)
				expect(files.length).toBeGreaterThan(0)

				const first = await migrate(db, { platform: 'local' })
				expect(first).toEqual(files.map((f) => f.version))

				// The shim is idempotent and runs again; the migrations do not.
				const second = await migrate(db, { platform: 'local' })
				expect(second).toEqual([])

				const { rows } = await db.query<{ version: string; name: string; statements: string[] }>(
					'select version, name, statements from supabase_migrations.schema_migrations order by version',
				)
				expect(rows.map((r) => ({ version: r.version, name: r.name }))).toEqual(
					files.map((f) => ({ version: f.version, name: f.name })),
				)
				expect(rows.every((r) => r.statements.length === 1 && r.statements[0]!.length > 0)).toBe(true)
			} finally {
				await dispose()
			}
		})

		test('two concurrent migrate() calls apply each migration exactly once', async () => {
			const { db, url, dispose } = await createEmptyDatabase(kind)
			// On Postgres the second caller gets its own pool, like a second process.
			const other = url ? await createDatabase({ url, poolSize: 2 }) : db
			try {
				const [a, b] = await Promise.all([migrate(db, { platform: 'local' }), migrate(other, { platform: 'local' })])
				const files = await listMigrations(migrationsDir)
				expect([...a, ...b].sort()).toEqual(files.map((f) => f.version).sort())
				const { rows } = await db.query<{ n: number }>('select count(*)::int as n from supabase_migrations.schema_migrations')
				expect(rows[0]?.n).toBe(files.length)
			} finally {
				if (other !== db) await other.close()
				await dispose()
			}
		})

		test('a failing migration rolls back entirely and is not recorded', async () => {
			const { db, dispose } = await createEmptyDatabase(kind)
			const { mkdtemp, mkdir, writeFile, cp, rm } = await import('node:fs/promises')
			const { tmpdir } = await import('node:os')
			const dir = await mkdtemp(path.join(tmpdir(), 'dareboost-migrate-'))
			try {
				await cp(path.join(process.cwd(), 'supabase', 'local-shim'), path.join(dir, 'local-shim'), { recursive: true })
				await mkdir(path.join(dir, 'migrations'))
				await writeFile(path.join(dir, 'migrations', '20000101000000_ok.sql'), 'create table public.ok (id int);')
				await writeFile(
					path.join(dir, 'migrations', '20000101000001_broken.sql'),
					'create table public.half (id int);\nselect 1/0;',
				)
				await expect(migrate(db, { platform: 'local', dir })).rejects.toThrow(/20000101000001_broken\.sql/)
				const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')
				expect(rows.map((r) => r.version)).toEqual(['20000101000000'])
				const tables = await db.query<{ name: string | null }>("select to_regclass('public.half')::text as name")
				expect(tables.rows[0]?.name).toBeNull()
			} finally {
				await rm(dir, { recursive: true, force: true })
				await dispose()
			}
		})
	})
}

describeEachDatabase('schema guarantees', (getDb) => {
	test('every table in public has row-level security enabled', async () => {
		const { rows } = await getDb().query<{ relname: string }>(
			`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
			 where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
		)
		expect(rows).toEqual([])
	})

	test('every security definer function in public pins its search_path', async () => {
		const { rows } = await getDb().query<{ proname: string }>(
			`select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
			 where n.nspname = 'public' and p.prosecdef
			   and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
		)
		expect(rows).toEqual([])
	})

	test('no API role can write wallets or consents directly', async () => {
		const { rows } = await getDb().query<{ grantee: string; table_name: string; privilege_type: string }>(
			`select grantee, table_name, privilege_type from information_schema.role_table_grants
			 where table_schema = 'public' and table_name in ('wallets', 'consents', 'sessions', 'creator_profiles')
			   and grantee in ('anon', 'authenticated') and privilege_type <> 'SELECT'`,
		)
		expect(rows).toEqual([])
	})
})

describeEachDatabase('seedDemoData', (getDb) => {
	const snapshot = async () => {
		const db = getDb()
		const q = async (sql: string) => (await db.query(sql)).rows
		return {
			users: await q('select id, email, email_confirmed_at is not null as confirmed from auth.users order by id'),
			profiles: await q('select id, username from public.profiles order by id'),
			wallets: await q('select id, balance from public.wallets order by id'),
			creators: await q('select id, twitch_channel, youtube_channel, kick_channel from public.creator_profiles order by id'),
			sessions: await q('select id, creator_id, status, title, platform, channel, created_at, ended_at from public.sessions order by id'),
			dares: await q('select id, status from public.dares order by id'),
			transfers: await q('select count(*)::int as n from ledger.transfers'),
		}
	}

	test('creates the demo accounts, channels and sessions', async () => {
		await seedDemoData(getDb())
		const s = await snapshot()
		expect(s.users).toHaveLength(Object.keys(DEMO_USERS).length)
		expect(s.users.every((u) => u.confirmed === true)).toBe(true)
		expect(s.profiles.map((p) => p.username).sort()).toEqual(Object.values(DEMO_USERS).map((u) => u.username).sort())
		// Every demo coin is in a wallet or a dare's pot, but Mia's paid payout: the demo dares and payout moved them through the ledger.
		const { rows: held } = await getDb().query<{ coins: string }>(
			`select (select sum(balance) from public.wallets) + (select coalesce(sum(balance), 0) from ledger.accounts where kind = 'pot') as coins`,
		)
		expect(Number(held[0]!.coins)).toBe(Object.values(DEMO_COINS).reduce((a, b) => a + b, 0) - DEMO_PAYOUT_COINS)
		expect((await getDb().query('select * from ledger.check()')).rows).toEqual([])
		// Mia's earnings (docs/product.md §14): some matured, one payout paid, what her live session earned today pending.
		const { rows: earnings } = await asUser(getDb(), claimsFor(DEMO_USERS.mia.id), (tx) => tx.query('select earned, pending, available, paid_out, blockers from public.my_earnings()'))
		const figures = earnings[0] as Record<string, unknown>
		expect({ ...Object.fromEntries(['earned', 'pending', 'available', 'paid_out'].map((k) => [k, Number(figures[k])])), blockers: figures.blockers }).toEqual({
			earned: 4800,
			pending: 300,
			available: 2500,
			paid_out: 2000,
			blockers: [],
		})
		expect(new Set(s.dares.map((d) => d.status))).toEqual(new Set(['open', 'accepted', 'voting', 'completed', 'failed', 'rejected', 'expired']))
		expect(s.dares).toHaveLength(DEMO_DARES.length)
		expect(s.creators).toEqual([
			{ id: DEMO_USERS.mia.id, twitch_channel: 'mia_plays', youtube_channel: null, kick_channel: null },
			{ id: DEMO_USERS.lucia.id, twitch_channel: null, youtube_channel: 'lucia_draws', kick_channel: null },
			{ id: DEMO_USERS.emre.id, twitch_channel: null, youtube_channel: null, kick_channel: 'emre_live' },
		])
		const active = s.sessions.filter((x) => x.status === 'active').map((x) => x.id)
		expect(active.sort()).toEqual([DEMO_SESSIONS.miaLive.id, DEMO_SESSIONS.emreLive.id].sort())
		expect(s.sessions.find((x) => x.id === DEMO_SESSIONS.miaEnded.id)?.status).toBe('ended')
		expect(s.sessions.find((x) => x.id === DEMO_SESSIONS.luciaEnded.id)?.status).toBe('ended')
	})

	test('with a platform fee, the past session’s earnings are its pots less the fee, and nothing is left in them', async () => {
		const db = getDb()
		await db.query('select ledger.set_platform_fee(1000)')
		await seedDemoData(db)
		const { rows } = await db.query<{ kind: string; amount: string }>(
			`select kind, sum(amount)::text as amount from ledger.transfers where reference = any($1::text[]) and kind in ('payout', 'fee') group by kind order by kind`,
			[DEMO_DARES.filter((d) => d.session === 'miaEnded').map((d) => d.id)],
		)
		expect(rows).toEqual([
			{ kind: 'fee', amount: '450' },
			{ kind: 'payout', amount: '4050' },
		])
		expect((await db.query(`select count(*)::int as n from ledger.accounts where kind = 'pot' and balance <> 0 and dare_id = any($1::uuid[])`, [DEMO_DARES.filter((d) => d.status === 'completed').map((d) => d.id)])).rows[0]!.n).toBe(0)
		expect((await db.query('select * from ledger.check()')).rows).toEqual([])
	})

	test('running it again changes nothing, not even spent balances', async () => {
		const db = getDb()
		await seedDemoData(db)
		// Spend some of jonas's coins (into a pot), as a boost would.
		await db.query(
			`select * from ledger.transfer(ledger.wallet_account($1), ledger.pot_account(gen_random_uuid()), 1000, 'boost', null, 'test-spend-jonas')`,
			[DEMO_USERS.jonas.id],
		)
		const before = await snapshot()
		await seedDemoData(db)
		expect(await snapshot()).toEqual(before)
	})
})

describeEachDatabase("migrations run with the limits of Supabase's postgres role", (getDb) => {
	test('the migration role is no superuser, bypasses RLS like postgres, and belongs to none of the service roles', async () => {
		const { rows } = await getDb().query(
			`select rolsuper, rolbypassrls, rolcreaterole, rolcanlogin,
				pg_has_role('app_owner', 'supabase_auth_admin', 'member') as in_auth_admin,
				pg_has_role('app_owner', 'supabase_admin', 'member') as in_supabase_admin
			 from pg_roles where rolname = 'app_owner'`,
		)
		expect(rows).toEqual([
			{ rolsuper: false, rolbypassrls: true, rolcreaterole: false, rolcanlogin: false, in_auth_admin: false, in_supabase_admin: false },
		])
	})

	test('auth belongs to supabase_auth_admin and realtime to supabase_admin; auth.users has row-level security on', async () => {
		const { rows } = await getDb().query(
			`select
				(select nspowner::regrole::text from pg_namespace where nspname = 'auth') as auth_schema,
				(select relowner::regrole::text from pg_class where oid = 'auth.users'::regclass) as auth_users,
				(select relrowsecurity from pg_class where oid = 'auth.users'::regclass) as auth_users_rls,
				(select proowner::regrole::text from pg_proc where oid = 'auth.uid()'::regprocedure) as auth_uid,
				(select nspowner::regrole::text from pg_namespace where nspname = 'realtime') as realtime_schema,
				(select proowner::regrole::text from pg_proc where oid = 'realtime.topic()'::regprocedure) as realtime_topic`,
		)
		expect(rows).toEqual([
			{
				auth_schema: 'supabase_auth_admin',
				auth_users: 'supabase_auth_admin',
				auth_users_rls: true,
				auth_uid: 'supabase_auth_admin',
				realtime_schema: 'supabase_admin',
				realtime_topic: 'supabase_admin',
			},
		])
	})

	test('everything the migrations create, definer functions included, belongs to the migration role', async () => {
		const { rows } = await getDb().query<{ object: string }>(
			`select format('%s.%s', n.nspname, c.relname) as object
			 from pg_class c join pg_namespace n on n.oid = c.relnamespace
			 where n.nspname in ('public', 'app_private') and c.relowner <> 'app_owner'::regrole
			 union all
			 select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
			 where n.nspname in ('public', 'app_private') and p.proowner <> 'app_owner'::regrole
			 union all
			 select nspname from pg_namespace where nspname = 'app_private' and nspowner <> 'app_owner'::regrole`,
		)
		expect(rows).toEqual([])
	})

	const REFUSED: Array<[string, string]> = [
		['a column added to auth.users', 'alter table auth.users add column nickname text'],
		['row-level security switched off on auth.users', 'alter table auth.users disable row level security'],
		['an index on auth.users', 'create index users_nickname_idx on auth.users (email, phone)'],
		['a function in auth', `create function auth.is_admin() returns boolean language sql as 'select false'`],
		['a changed auth helper', `create or replace function auth.uid() returns uuid language sql as 'select null::uuid'`],
		['a table in auth', 'create table auth.extra (id int)'],
		['a table in realtime', 'create table realtime.extra (id int)'],
		['a function in realtime', `create function realtime.extra() returns int language sql as 'select 1'`],
		['a dropped auth table', 'drop table auth.mfa_factors'],
		['membership in the auth admin role', 'grant supabase_auth_admin to app_owner'],
		['a new role', 'create role sneaky'],
	]

	for (const [what, sql] of REFUSED) {
		test(`a migration with ${what} fails locally, as it would under supabase db push`, async () => {
			const db = getDb()
			await expect(applyMigration(db, sql)).rejects.toThrow(/29991231000000_extra\.sql failed: (must be owner|permission denied|must have admin option)/)
			const { rows } = await db.query("select 1 from supabase_migrations.schema_migrations where version = '29991231000000'")
			expect(rows).toEqual([])
		})
	}

	test('a migration may still add what postgres may add there: a trigger and a foreign key on auth.users, a policy on realtime.messages', async () => {
		const db = getDb()
		await applyMigration(
			db,
			`create table public.notes (
				id uuid primary key default gen_random_uuid(),
				author uuid not null references auth.users (id) on delete cascade
			);
			alter table public.notes enable row level security;
			create function public.note_on_sign_up() returns trigger language plpgsql security definer set search_path = '' as $$
			begin
				insert into public.notes (author) values (new.id);
				return new;
			end;
			$$;
			create trigger note_on_sign_up after insert on auth.users for each row execute function public.note_on_sign_up();
			create policy "Nobody reads broadcasts on notes" on realtime.messages for select to authenticated
				using (realtime.messages.topic <> 'notes');`,
		)
		const user = await createAuthUser(db)
		expect((await db.query('select author from public.notes')).rows).toEqual([{ author: user }])
	})

	test('a Better Auth sign-up still creates the auth.users row and the wallet through definer functions the migration role owns', async () => {
		const db = getDb()
		const id = randomUUID()
		await db.query(
			`insert into better_auth."user" ("id", "name", "email", "emailVerified") values ($1, '', $2, false)`,
			[id, `${id}@test.local`],
		)
		expect((await db.query('select id from auth.users where id = $1', [id])).rows).toEqual([{ id }])
		expect((await db.query('select balance from public.wallets where id = $1', [id])).rows).toEqual([{ balance: 0 }])
	})
})
