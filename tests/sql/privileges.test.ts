import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Queryable } from '#app/db/database.server'
import { applyMigration, claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { fundWallet } from '#tests/support/wallet'

const PERMISSION_DENIED = '42501'
const API_ROLES = ['anon', 'authenticated'] as const

/**
 * The schemas Supabase's Data API serves (supabase/config.toml [api] schemas,
 * plus storage for Storage's own API). Those that do not exist locally are
 * skipped; on a project they are Supabase's, not the migrations'.
 */
const EXPOSED_SCHEMAS = ['public', 'graphql_public', 'storage']

/**
 * Everything `role` may do in `schemas`, one sorted line per object:
 * schema usage and create, table and view privileges, column privileges held
 * without the table-wide one, sequence privileges, and function execution
 * (also when it comes from PUBLIC). has_*_privilege answers with grants to
 * PUBLIC and to roles `role` belongs to included, which is what a request
 * running as that role can actually do.
 */
export async function aclOf(db: Queryable, role: string, schemas: readonly string[]): Promise<string[]> {
	const { rows } = await db.query<{ line: string }>(
		`with s as (
			select n.oid, n.nspname from pg_namespace n where n.nspname = any($2::text[])
		),
		schema_lines as (
			select format('schema %s: %s', s.nspname, string_agg(p.priv, ', ' order by p.priv)) as line
			from s cross join unnest(array['USAGE', 'CREATE']) as p(priv)
			where has_schema_privilege($1, s.oid, p.priv)
			group by s.nspname
		),
		rels as (
			select c.oid, s.nspname, c.relname,
				case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence'
					when 'f' then 'foreign table' else 'table' end as kind
			from pg_class c join s on s.oid = c.relnamespace
			where c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and not c.relispartition
		),
		table_lines as (
			select format('%s %s.%s: %s', r.kind, r.nspname, r.relname, string_agg(p.priv, ', ' order by p.priv)) as line
			from rels r cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) as p(priv)
			where r.kind <> 'sequence' and has_table_privilege($1, r.oid, p.priv)
			group by r.kind, r.nspname, r.relname
		),
		column_lines as (
			select format('%s %s.%s (%s): %s', r.kind, r.nspname, r.relname, a.attname, string_agg(p.priv, ', ' order by p.priv)) as line
			from rels r
			join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
			cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) as p(priv)
			where r.kind <> 'sequence'
				and has_column_privilege($1, r.oid, a.attnum, p.priv)
				and not has_table_privilege($1, r.oid, p.priv)
			group by r.kind, r.nspname, r.relname, a.attname
		),
		sequence_lines as (
			select format('sequence %s.%s: %s', r.nspname, r.relname, string_agg(p.priv, ', ' order by p.priv)) as line
			from rels r cross join unnest(array['USAGE', 'SELECT', 'UPDATE']) as p(priv)
			where r.kind = 'sequence' and has_sequence_privilege($1, r.oid, p.priv)
			group by r.nspname, r.relname
		),
		function_lines as (
			select format('%s %s.%s(%s): EXECUTE%s',
				case f.prokind when 'p' then 'procedure' else 'function' end,
				s.nspname, f.proname, pg_get_function_identity_arguments(f.oid),
				case when f.prosecdef then ' (security definer)' else '' end) as line
			from pg_proc f join s on s.oid = f.pronamespace
			where has_function_privilege($1, f.oid, 'EXECUTE')
		)
		select line from schema_lines
		union all select line from table_lines
		union all select line from column_lines
		union all select line from sequence_lines
		union all select line from function_lines
		order by 1`,
		[role, schemas],
	)
	return rows.map((r) => r.line)
}

/** The schemas other than the exposed ones (and the system's) that exist in the database. */
async function otherSchemas(db: Queryable): Promise<string[]> {
	const { rows } = await db.query<{ nspname: string }>(
		`select nspname from pg_namespace
		 where nspname not like 'pg\\_%' and nspname <> 'information_schema' and nspname <> all($1::text[])
		 order by 1`,
		[EXPOSED_SCHEMAS],
	)
	return rows.map((r) => r.nspname)
}

/** A dare's columns both API roles read: every one but the creating request's key (idempotency_key). */
const DARE_COLUMNS_READ = ['accepted_at', 'author_id', 'created_at', 'description', 'id', 'resolved_at', 'reward', 'session_id', 'status', 'voting_ends_at'].map(
	(column) => `table public.dares (${column}): SELECT`,
)

/**
 * What the API roles may do in the schemas the Data API serves. Any change
 * to a grant, a column grant, a function's EXECUTE (PUBLIC's included) or a
 * new object that is reachable shows up here and must be written down in
 * the same change, where a reviewer sees it.
 */
const EXPOSED_ACL: Record<(typeof API_ROLES)[number], string[]> = {
	anon: [
		'function public.give_consent(p_kind text, p_version text): EXECUTE (security definer)',
		'function public.has_consented(p_tos_version text, p_ca_version text): EXECUTE (security definer)',
		'function public.is_username_available(check_username text): EXECUTE (security definer)',
		// The OBS overlay asks whether its key is right, signed out (ADR 036).
		'function public.overlay_key_valid(p_session_id uuid, p_key text): EXECUTE (security definer)',
		'function public.session_dares(p_session_id uuid): EXECUTE (security definer)',
		// The overlay's top boosters: public, like a stream's top cheerers (issue 26).
		'function public.session_top_boosters(p_session_id uuid, p_limit integer): EXECUTE (security definer)',
		'function public.session_totals(p_session_id uuid): EXECUTE (security definer)',
		'schema public: USAGE',
		...DARE_COLUMNS_READ,
		'table public.published_documents: SELECT',
		'table public.sessions: SELECT',
		'view public.public_profiles: SELECT',
	],
	authenticated: [
		'function public.accept_dare(p_dare_id uuid): EXECUTE (security definer)',
		'function public.appeal_decision(p_decision_id uuid, p_statement text): EXECUTE (security definer)',
		'function public.approve_dare(p_dare_id uuid): EXECUTE (security definer)',
		'function public.ban_viewer(p_user_id uuid): EXECUTE (security definer)',
		'function public.boost_dare(p_dare_id uuid, p_amount integer, p_idempotency_key text): EXECUTE (security definer)',
		'function public.cancel_vote(p_dare_id uuid): EXECUTE (security definer)',
		'function public.create_dare(p_description text, p_session_id uuid, p_reward integer, p_idempotency_key text, p_language text): EXECUTE (security definer)',
		'function public.create_session(p_title text, p_min_boost integer, p_max_dares_per_user integer, p_max_free_dares_per_user integer, p_platform text, p_channel text, p_seconds_to_vote integer): EXECUTE (security definer)',
		'function public.extend_vote(p_dare_id uuid, p_seconds integer): EXECUTE (security definer)',
		'function public.give_consent(p_kind text, p_version text): EXECUTE (security definer)',
		'function public.has_consented(p_tos_version text, p_ca_version text): EXECUTE (security definer)',
		'function public.hide_dare(p_dare_id uuid): EXECUTE (security definer)',
		'function public.is_username_available(check_username text): EXECUTE (security definer)',
		'function public.link_channel(p_platform text): EXECUTE (security definer)',
		'function public.link_twitch_channel(): EXECUTE (security definer)',
		'function public.moderate(p_action text, p_target uuid, p_ground text, p_explanation text): EXECUTE (security definer)',
		'function public.moderation_appeals_open(): EXECUTE (security definer)',
		'function public.moderation_queue(): EXECUTE (security definer)',
		'function public.my_bans(): EXECUTE (security definer)',
		'function public.my_decision(p_decision_id uuid): EXECUTE (security definer)',
		'function public.my_earnings(): EXECUTE (security definer)',
		'function public.my_earnings_by_session(p_limit integer): EXECUTE (security definer)',
		'function public.my_payouts(p_limit integer): EXECUTE (security definer)',
		'function public.my_pending_earnings(): EXECUTE (security definer)',
		'function public.my_restrictions(): EXECUTE (security definer)',
		'function public.overlay_key(p_session_id uuid): EXECUTE (security definer)',
		'function public.overlay_key_valid(p_session_id uuid, p_key text): EXECUTE (security definer)',
		'function public.payout_quote(p_coins bigint): EXECUTE (security definer)',
		'function public.payouts_awaiting_review(): EXECUTE (security definer)',
		'function public.purchase_history(p_limit integer): EXECUTE (security definer)',
		'function public.regenerate_overlay_key(p_session_id uuid): EXECUTE (security definer)',
		'function public.reject_dare(p_dare_id uuid, p_idempotency_key text): EXECUTE (security definer)',
		'function public.report_dare(p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text): EXECUTE (security definer)',
		'function public.request_payout(p_coins bigint, p_idempotency_key text): EXECUTE (security definer)',
		// One dare as its reader sees it: a boost's, a vote's or a new dare's answer to the page's script (ADR 045).
		'function public.session_dare(p_dare_id uuid): EXECUTE (security definer)',
		'function public.session_dares(p_session_id uuid): EXECUTE (security definer)',
		'function public.session_recap(p_session_id uuid): EXECUTE (security definer)',
		// The overlay's top boosters: public, like a stream's top cheerers (issue 26).
		'function public.session_top_boosters(p_session_id uuid, p_limit integer): EXECUTE (security definer)',
		'function public.session_totals(p_session_id uuid): EXECUTE (security definer)',
		'function public.set_blocked_terms(p_terms text[]): EXECUTE (security definer)',
		'function public.set_hold_new_dares(p_session_id uuid, p_hold boolean): EXECUTE (security definer)',
		'function public.start_voting(p_dare_id uuid): EXECUTE (security definer)',
		'function public.stop_active_session(p_idempotency_key text): EXECUTE (security definer)',
		'function public.unban_viewer(p_user_id uuid): EXECUTE (security definer)',
		'function public.unlink_channel(p_platform text): EXECUTE (security definer)',
		'function public.vote_for_dare(p_dare_id uuid, p_vote boolean): EXECUTE (security definer)',
		'function public.wallet_transfers(p_limit integer): EXECUTE (security definer)',
		'schema public: USAGE',
		'table public.blocked_terms: SELECT',
		'table public.boosts: SELECT',
		'table public.consents: SELECT',
		'table public.creator_bans: SELECT',
		'table public.creator_profiles: SELECT',
		...DARE_COLUMNS_READ,
		'table public.profiles (id): INSERT',
		'table public.profiles (username): INSERT, UPDATE',
		'table public.profiles: SELECT',
		'table public.published_documents: SELECT',
		'table public.sessions: SELECT',
		'table public.votes: SELECT',
		'table public.wallets: SELECT',
		'view public.public_profiles: SELECT',
	],
}

/**
 * What the API roles may do outside the exposed schemas: PostgREST does not
 * serve these, but policies and functions run as the caller reach them, so
 * they are pinned too. auth and realtime are as on Supabase (the helpers,
 * realtime.messages under its policies); app_private offers the assurance
 * and operator helpers to policies and nothing else; better_auth, local_dev and
 * supabase_migrations (local only) offer nothing.
 */
const OTHER_ACL: Record<(typeof API_ROLES)[number], string[]> = {
	anon: [
		'function auth.email(): EXECUTE',
		'function auth.jwt(): EXECUTE',
		'function auth.role(): EXECUTE',
		'function auth.uid(): EXECUTE',
		'function realtime.send(payload jsonb, event text, topic text, private boolean): EXECUTE',
		'function realtime.topic(): EXECUTE',
		'schema auth: USAGE',
		'schema realtime: USAGE',
		'table realtime.messages: INSERT, SELECT, UPDATE',
	],
	authenticated: [
		'function app_private.has_assurance(): EXECUTE (security definer)',
		'function app_private.is_operator(): EXECUTE (security definer)',
		'function auth.email(): EXECUTE',
		'function auth.jwt(): EXECUTE',
		'function auth.role(): EXECUTE',
		'function auth.uid(): EXECUTE',
		'function realtime.send(payload jsonb, event text, topic text, private boolean): EXECUTE',
		'function realtime.topic(): EXECUTE',
		'schema app_private: USAGE',
		'schema auth: USAGE',
		'schema realtime: USAGE',
		'table realtime.messages: INSERT, SELECT, UPDATE',
	],
}

/** Views that run with their owner's rights on purpose (each one's reason is in its migration). */
const DEFINER_VIEWS = ['public.public_profiles']

/** A migration that creates objects the way a hurried one would: no revoke, no grant. */
const FORGETFUL_MIGRATION = `
	create view public.wallet_overview as select id, balance from public.wallets;
	create table public.notes (id bigint generated always as identity primary key, body text);
	create sequence public.ticket_numbers;
	create function public.credit_me(amount bigint) returns void
	language sql security definer set search_path = '' as $$
		update public.wallets set balance = balance + amount where id = (select auth.uid())
	$$;
	create function app_private.leak_rate_limits() returns setof app_private.rate_limits
	language sql security definer set search_path = '' as $$ select * from app_private.rate_limits $$;
`

describeEachDatabase('deny by default', (getDb) => {
	test('the API roles can do exactly what the snapshot lists in the exposed schemas', async () => {
		const db = getDb()
		for (const role of API_ROLES) {
			expect(await aclOf(db, role, EXPOSED_SCHEMAS), role).toEqual(EXPOSED_ACL[role])
		}
	})

	test('the API roles can do exactly what the snapshot lists in every other schema', async () => {
		const db = getDb()
		const schemas = await otherSchemas(db)
		for (const role of API_ROLES) {
			expect(await aclOf(db, role, schemas), role).toEqual(OTHER_ACL[role])
		}
	})

	test('every view in an exposed schema runs with the caller’s rights unless it is on the allow-list', async () => {
		const { rows } = await getDb().query<{ name: string }>(
			`select format('%s.%s', n.nspname, c.relname) as name
			 from pg_class c join pg_namespace n on n.oid = c.relnamespace
			 where c.relkind in ('v', 'm') and n.nspname = any($1::text[])
			   and not coalesce('security_invoker=true' = any(c.reloptions) or 'security_invoker=on' = any(c.reloptions), false)
			 order by 1`,
			[EXPOSED_SCHEMAS],
		)
		expect(rows.map((r) => r.name)).toEqual(DEFINER_VIEWS)
	})

	test('a later migration that forgets its revokes exposes nothing: not a view over wallets, a table, a sequence or a definer function', async () => {
		const db = getDb()
		await applyMigration(db, FORGETFUL_MIGRATION)
		for (const role of API_ROLES) {
			expect(await aclOf(db, role, EXPOSED_SCHEMAS), role).toEqual(EXPOSED_ACL[role])
			expect(await aclOf(db, role, await otherSchemas(db)), role).toEqual(OTHER_ACL[role])
		}

		const user = await createAuthUser(db)
		const other = await createAuthUser(db)
		await fundWallet(db, other, 10)
		const attempts = [
			'select * from public.wallet_overview',
			'update public.wallet_overview set balance = 1000000',
			'insert into public.notes (body) values ($$hi$$)',
			'select * from public.notes',
			`select nextval('public.ticket_numbers')`,
			'select public.credit_me(1000000)',
			'select * from app_private.leak_rate_limits()',
		]
		for (const claims of [null, claimsFor(user, { aal: 'aal2' })]) {
			for (const sql of attempts) {
				const error = await rejectionOf(asUser(db, claims, (tx) => tx.query(sql)))
				expect(error.code, `${claims ? 'authenticated' : 'anon'}: ${sql}`).toBe(PERMISSION_DENIED)
			}
		}
		const { rows } = await db.query<{ balance: number }>('select balance from public.wallets order by balance')
		expect(rows).toEqual([{ balance: 0 }, { balance: 10 }])
	})
})

describeEachDatabase('attacks as anon and authenticated, straight against the database', (getDb) => {
	/** Statements each API role is refused with "permission denied" (42501). $1 is the attacker (or a random id for anon), $2 the victim. */
	const DENIED: Array<[string, string]> = [
		['credit a wallet', 'update public.wallets set balance = balance + 1000 where id in ($1, $2)'],
		['create a wallet', 'insert into public.wallets (id, balance) values ($1, 1000000)'],
		['delete a wallet', 'delete from public.wallets where id in ($1, $2)'],
		['truncate the wallets', 'truncate public.wallets'],
		["create another user's profile", `insert into public.profiles (id, username) values ($2, 'hijacked')`],
		['delete a profile', 'delete from public.profiles where id in ($1, $2)'],
		['move a profile to another id', 'update public.profiles set id = $2 where id = $1'],
		['backdate a profile', `update public.profiles set created_at = '2000-01-01' where id = $1`],
		['record a consent directly', `insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', 'v1')`],
		['claim a channel', `insert into public.creator_profiles (id, twitch_channel) values ($1, 'famous')`],
		['take over a channel', `update public.creator_profiles set twitch_channel = 'mine' where id = $2`],
		['start a session directly', `insert into public.sessions (creator_id, title, platform, channel) values ($1, 'x', 'twitch', 'x')`],
		['end a session directly', `update public.sessions set status = 'ended', ended_at = now()`],
		['publish a document version', `insert into public.published_documents (kind, version) values ('terms_of_service', 'evil')`],
		['rename through the public view', `update public.public_profiles set username = 'hijacked' where id = $2`],
		['insert through the public view', `insert into public.public_profiles (id, username) values ($1, 'viaview')`],
		['delete through the public view', 'delete from public.public_profiles where id = $2'],
		['read auth.users', 'select email from auth.users'],
		['read auth.mfa_factors', 'select * from auth.mfa_factors'],
		['delete an account', 'delete from auth.users where id = $2'],
		['read the rate limits', 'select * from app_private.rate_limits'],
		['read Better Auth users', 'select * from better_auth."user"'],
		['read Better Auth sessions', 'select token from better_auth."session"'],
		['read Better Auth TOTP secrets', 'select secret from better_auth."twoFactor"'],
		['read the dev mailbox', 'select * from local_dev.mailbox'],
		['read the migration history', 'select * from supabase_migrations.schema_migrations'],
		['create a table in public', 'create table public.mine (id int)'],
		['create a view in public', 'create view public.mine as select 1'],
		['create a function in public', `create function public.mine() returns int language sql as 'select 1'`],
		['create a schema', 'create schema mine'],
		['create a table in app_private', 'create table app_private.mine (id int)'],
		['create a table in auth', 'create table auth.mine (id int)'],
		['create a table in realtime', 'create table realtime.mine (id int)'],
		['call the deletion guard', 'select app_private.before_user_delete()'],
		['call the mirror trigger', 'select better_auth.sync_auth_user()'],
		['read the ledger', 'select * from ledger.transfers'],
		['write the ledger', `insert into ledger.transfers (from_account, to_account, amount, kind, idempotency_key) values (1, 2, 1000, 'purchase', 'forged-key-0001')`],
		['move money directly', `select ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 1000, 'purchase', 'x', 'forged-key-0002')`],
		['link a channel to someone else', `select app_private.set_channel($2, 'twitch', 'stolen')`],
	]

	for (const [label, sql] of DENIED) {
		test(`${label}: refused to visitors and users`, async () => {
			const db = getDb()
			const attacker = await createAuthUser(db)
			const victim = await createAuthUser(db)
			await db.query(`insert into public.profiles (id, username) values ($1, 'attacker'), ($2, 'victim')`, [attacker, victim])
			await fundWallet(db, victim, 10)
			const before = await db.query('select (select json_agg(w order by id) from public.wallets w) as w, (select json_agg(p order by id) from public.profiles p) as p')
			for (const claims of [null, claimsFor(attacker, { aal: 'aal2' })]) {
				const error = await rejectionOf(
					asUser(db, claims, (tx) => tx.query(sql.replaceAll('$1', `'${attacker}'::uuid`).replaceAll('$2', `'${victim}'::uuid`))),
				)
				expect(error.code, `${claims ? 'authenticated' : 'anon'}: ${error.message}`).toBe(PERMISSION_DENIED)
			}
			const after = await db.query('select (select json_agg(w order by id) from public.wallets w) as w, (select json_agg(p order by id) from public.profiles p) as p')
			expect(after.rows).toEqual(before.rows)
		})
	}

	test("renaming another user's profile changes nothing (row-level security hides the row)", async () => {
		const db = getDb()
		const attacker = await createAuthUser(db)
		const victim = await createAuthUser(db)
		await db.query(`insert into public.profiles (id, username) values ($1, 'attacker'), ($2, 'victim')`, [attacker, victim])
		const { rowCount } = await asUser(db, claimsFor(attacker, { aal: 'aal2' }), (tx) =>
			tx.query(`update public.profiles set username = 'hijacked' where id = $1`, [victim]),
		)
		expect(rowCount).toBe(0)
		expect((await db.query('select username from public.profiles where id = $1', [victim])).rows).toEqual([{ username: 'victim' }])
	})

	test('a visitor cannot create a profile at all', async () => {
		const db = getDb()
		const error = await rejectionOf(
			asUser(db, null, (tx) => tx.query(`insert into public.profiles (id, username) values (gen_random_uuid(), 'ghost')`)),
		)
		expect(error.code).toBe(PERMISSION_DENIED)
	})

	test('the internal trigger functions are not callable', async () => {
		const db = getDb()
		for (const fn of ['public.handle_new_user()', 'public.set_updated_at()', 'better_auth.sync_mfa_factor()']) {
			for (const role of API_ROLES) {
				const { rows } = await db.query<{ ok: boolean }>(
					`select has_function_privilege($1, $2::regprocedure, 'EXECUTE') as ok`,
					[role, fn],
				)
				expect(rows[0]?.ok, `${role}: ${fn}`).toBe(false)
			}
		}
	})
})
