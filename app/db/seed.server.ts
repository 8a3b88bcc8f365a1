import { testAccountId } from '#app/modules/payouts/test-provider.server'
import { toAppError, type Database, type Queryable } from './database.server'

/**
 * Demo data for the embedded default, so a fresh checkout shows live
 * sessions, creators and funded viewers. Fixed ids keep it idempotent and let
 * tests refer to it.
 */

export const DEMO_BALANCE = 2_500

export const DEMO_USERS = {
	mia: { id: 'de300000-0000-4000-8000-000000000001', email: 'mia@demo.local', username: 'mia' },
	jonas: { id: 'de300000-0000-4000-8000-000000000002', email: 'jonas@demo.local', username: 'jonas' },
	lucia: { id: 'de300000-0000-4000-8000-000000000003', email: 'lucia@demo.local', username: 'lucia' },
	emre: { id: 'de300000-0000-4000-8000-000000000004', email: 'emre@demo.local', username: 'emre' },
	// Mia's biggest fan: his boosts on her earlier session are her matured earnings (docs/product.md §14).
	noah: { id: 'de300000-0000-4000-8000-000000000005', email: 'noah@demo.local', username: 'noah' },
} as const

export type DemoUserKey = keyof typeof DEMO_USERS

/** The coins each demo account starts with: DEMO_BALANCE, and Noah what his boosts on Mia's earlier session took too. */
export const DEMO_COINS: Record<DemoUserKey, number> = { mia: DEMO_BALANCE, jonas: DEMO_BALANCE, lucia: DEMO_BALANCE, emre: DEMO_BALANCE, noah: DEMO_BALANCE + 4_500 }

/** Mia's first payout, paid through the test payouts' stand-in (docs/product.md §14). */
export const DEMO_PAYOUT_COINS = 2_000

/**
 * The demo accounts' password on the embedded default (local platform, demo
 * data on): public on purpose, listed on /dev/mailbox and in the README, so a
 * developer can sign in as a funded viewer or a live creator. Never set
 * anywhere demo data is off.
 */
export const DEMO_PASSWORD = 'dareboost-demo'

export const DEMO_CREATOR_CHANNELS = {
	mia: { platform: 'twitch', channel: 'mia_plays' },
	emre: { platform: 'kick', channel: 'emre_live' },
	lucia: { platform: 'youtube', channel: 'lucia_draws' },
} as const

export const DEMO_SESSIONS = {
	miaLive: {
		id: 'de300000-0000-4000-8000-00000000a001',
		creator: 'mia',
		platform: 'twitch',
		channel: 'mia_plays',
		title: 'Just Chatting: your dares until midnight',
		status: 'active',
	},
	emreLive: {
		id: 'de300000-0000-4000-8000-00000000a002',
		creator: 'emre',
		platform: 'kick',
		channel: 'emre_live',
		title: 'Speedrun night: dare me to break it',
		status: 'active',
	},
	miaEnded: {
		id: 'de300000-0000-4000-8000-00000000a003',
		creator: 'mia',
		platform: 'twitch',
		channel: 'mia_plays',
		title: 'Sunday sketching with chat',
		status: 'ended',
		// Long enough ago that what it earned has matured (PAYOUT_HOLD_DAYS, default 14).
		daysAgo: 20,
	},
	// A channel that is not live now: its page shows this last session.
	luciaEnded: {
		id: 'de300000-0000-4000-8000-00000000a004',
		creator: 'lucia',
		platform: 'youtube',
		channel: 'lucia_draws',
		title: 'Painting your wildest ideas',
		status: 'ended',
	},
} as const

type DemoDare = {
	id: string
	session: keyof typeof DEMO_SESSIONS
	author: DemoUserKey
	description: string
	status: 'open' | 'accepted' | 'voting' | 'completed' | 'failed' | 'rejected' | 'expired'
	/** The author's reward first (when above 0), then the other boosts. */
	boosts: Array<[DemoUserKey, number]>
	votes?: Array<[DemoUserKey, boolean]>
}

/** Dares in every state on the demo creators' sessions (an expired one where a session ended), so the whole loop shows at once. */
export const DEMO_DARES: DemoDare[] = [
	{ id: 'de300000-0000-4000-8000-0000000d0001', session: 'miaLive', author: 'jonas', description: 'Play the next round with your controller upside down', status: 'voting', boosts: [['jonas', 300], ['lucia', 200]], votes: [['lucia', true]] },
	{ id: 'de300000-0000-4000-8000-0000000d0002', session: 'miaLive', author: 'lucia', description: 'Read the next donation message in a pirate voice', status: 'open', boosts: [['lucia', 200], ['jonas', 150], ['emre', 100]] },
	{ id: 'de300000-0000-4000-8000-0000000d0003', session: 'miaLive', author: 'jonas', description: 'Do 20 squats between the rounds', status: 'accepted', boosts: [] },
	{ id: 'de300000-0000-4000-8000-0000000d0004', session: 'miaLive', author: 'lucia', description: "Draw chat's favourite animal in 60 seconds", status: 'completed', boosts: [['lucia', 250], ['jonas', 50]], votes: [['jonas', true], ['lucia', true]] },
	{ id: 'de300000-0000-4000-8000-0000000d0005', session: 'miaLive', author: 'emre', description: 'Beat the boss without healing once', status: 'failed', boosts: [['emre', 200]], votes: [['jonas', false]] },
	{ id: 'de300000-0000-4000-8000-0000000d0006', session: 'miaLive', author: 'lucia', description: 'Dye your hair green live on stream', status: 'rejected', boosts: [] },
	{ id: 'de300000-0000-4000-8000-0000000d0007', session: 'emreLive', author: 'jonas', description: 'Finish the level using only the jump button', status: 'open', boosts: [['jonas', 200], ['mia', 100]] },
	// Mia's earlier session, twenty days ago: what Noah's boosts earned her has matured.
	{ id: 'de300000-0000-4000-8000-0000000d0009', session: 'miaEnded', author: 'noah', description: 'Sketch a dragon with your other hand', status: 'completed', boosts: [['noah', 2500]], votes: [['noah', true]] },
	{ id: 'de300000-0000-4000-8000-0000000d0010', session: 'miaEnded', author: 'noah', description: 'Colour the whole sketch in one colour only', status: 'completed', boosts: [['noah', 2000]], votes: [['noah', true]] },
	// Still open when Lucia stopped that session: expired, its boosts refunded.
	{ id: 'de300000-0000-4000-8000-0000000d0008', session: 'luciaEnded', author: 'emre', description: 'Paint a portrait of chat with your eyes closed', status: 'expired', boosts: [['emre', 200], ['jonas', 100]] },
]

/** How long the demo's running vote lasts after the first boot. */
const DEMO_VOTE_SECONDS = 600

/**
 * Insert the demo accounts, profiles, wallets, creator channels and sessions
 * that are missing. Runs on the owner connection (auth.users is not writable
 * by any API role), in one transaction.
 *
 * Rows that exist are left alone, so running it on every boot never undoes
 * what was done with the demo accounts (a renamed profile, a stopped session,
 * spent coins). Only accounts created by this call get their coins, as a
 * ledger transfer from the outside world.
 */
/** The overlay key of every live demo session (demo data only: public, like the demo passwords). */
export const DEMO_OVERLAY_KEY = 'de300000de300000de300000de300000de300000de300000de300000de300000'

export async function seedDemoData(db: Database): Promise<void> {
	await db.transaction(async (tx) => {
		const created: string[] = []
		for (const user of Object.values(DEMO_USERS)) {
			// The trigger on auth.users creates the wallet, as for any account.
			const { rows } = await tx.query<{ id: string }>(
				`insert into auth.users (
					instance_id, id, aud, role, email, email_confirmed_at,
					raw_app_meta_data, raw_user_meta_data, created_at, updated_at
				) values (
					'00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, now(),
					'{"provider": "email", "providers": ["email"]}', '{"locale": "en"}', now(), now()
				)
				on conflict (id) do nothing
				returning id`,
				[user.id, user.email],
			)
			if (rows.length > 0) created.push(user.id)

			await tx.query('insert into public.profiles (id, username) values ($1, $2) on conflict do nothing', [
				user.id,
				user.username,
			])
		}

		// Through the ledger, from the outside world, once per demo account
		// (the transfer's key is the account's), whatever happens later.
		for (const [key, user] of Object.entries(DEMO_USERS)) {
			if (created.includes(user.id)) await tx.query('select * from ledger.grant_demo_coins($1, $2)', [user.id, DEMO_COINS[key as DemoUserKey]])
		}

		for (const [key, link] of Object.entries(DEMO_CREATOR_CHANNELS)) {
			const column = `${link.platform}_channel`
			await tx.query(
				`insert into public.creator_profiles (id, ${column}) values ($1, $2) on conflict do nothing`,
				[DEMO_USERS[key as DemoUserKey].id, link.channel],
			)
		}

		const newSessions = new Set<string>()
		for (const [key, session] of Object.entries(DEMO_SESSIONS)) {
			const ended = session.status === 'ended'
			// Without a conflict target: the id, but also "one active session
			// per creator/channel" when the demo creator has since started
			// another one, mean "already there".
			const { rowCount } = await tx.query(
				`insert into public.sessions (id, creator_id, status, title, platform, channel, created_at, ended_at)
				values (
					$1, $2, $3, $4, $5, $6,
					case when $7::boolean then now() - make_interval(days => $8) else now() end,
					case when $7::boolean then now() - make_interval(days => $8) + interval '3 hours' end
				)
				on conflict do nothing`,
				[
					session.id,
					DEMO_USERS[session.creator].id,
					session.status,
					session.title,
					session.platform,
					session.channel,
					ended,
					'daysAgo' in session ? session.daysAgo : 2,
				],
			)
			if (rowCount) newSessions.add(key)
			// The demo's overlay URL is known in advance (the README and the tests use it);
			// a real session's key is random (public.overlay_key).
			if (rowCount && !ended) {
				await tx.query('insert into app_private.overlay_keys (session_id, key) values ($1, $2) on conflict do nothing', [session.id, DEMO_OVERLAY_KEY])
			}
		}

		// Dares only on sessions this call created: a session someone used keeps what they did.
		// Settled ones first: each finished vote runs (and ends) before the session's running one starts.
		const settled = (d: DemoDare) => (['completed', 'failed', 'rejected', 'expired'].includes(d.status) ? 0 : 1)
		const dares = DEMO_DARES.filter((d) => newSessions.has(d.session)).sort((a, b) => settled(a) - settled(b))
		for (const dare of dares) await seedDare(tx, dare)
		if (newSessions.has('miaEnded')) await seedDemoPayout(tx)
	})
}

/**
 * Mia's payout account with the test payouts' stand-in, and her first
 * payout, paid: requested as she would (public.request_payout with her
 * claims), approved as an operator would (the first payout waits for one,
 * docs/product.md §14.4), then sent and paid as the stand-in does. What she
 * earned on her earlier session is left available for another. Skipped, in
 * its savepoint, when the operator's settings refuse it (a minimum or hold
 * above what the demo earned).
 */
async function seedDemoPayout(tx: Queryable): Promise<void> {
	const mia = DEMO_USERS.mia.id
	await tx.query('savepoint demo_payout')
	try {
		await tx.query(`select ledger.save_payout_account($1, 'test', $2, 'DE', 'ready', '{}', null)`, [mia, testAccountId(mia)])
		await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: mia, role: 'authenticated' })])
		const { rows } = await tx.query<{ id: string }>('select id from public.request_payout($1, $2)', [DEMO_PAYOUT_COINS, `demo-payout:${mia}`])
		await tx.query(`select set_config('request.jwt.claims', '', true)`)
		const payout = rows[0]!.id
		await tx.query(`update ledger.payouts set status = 'approved', decided_at = now() where id = $1 and status = 'review'`, [payout])
		await tx.query('select ledger.mark_payout_sent($1, $2)', [payout, `test_tr_${payout.replaceAll('-', '')}`])
		await tx.query('select ledger.mark_payout_paid($1)', [payout])
		await tx.query('release savepoint demo_payout')
	} catch (error) {
		if (!(toAppError(error)?.code ?? '').startsWith('error-')) throw error
		await tx.query('rollback to savepoint demo_payout')
	}
}

/**
 * A completed dare of a past demo session earned its creator coins back then,
 * so that they have matured (docs/product.md §14.1). Transfers are dated by
 * the database when they are made, so this dare's pot is paid out here,
 * dated when its session ran: the transfers resolve_dare makes (the pot less
 * the platform fee to the creator, the fee to the fee account, under their
 * keys), with the cached balance they change. resolve_dare then finds the
 * pot empty and only marks the dare completed. Demo data only.
 */
async function backdateEarning(tx: Queryable, dare: string, creator: string, daysAgo: number): Promise<void> {
	await tx.query(
		`with pot as (
		   select a.id, a.balance, (a.balance * s.fee_basis_points) / 10000 as fee
		   from ledger.accounts a cross join ledger.settings s where a.kind = 'pot' and a.dare_id = $1
		 ),
		 moved as (
		   insert into ledger.transfers (from_account, to_account, amount, kind, reference, idempotency_key, created_at)
		   select pot.id, ledger.wallet_account($2), pot.balance - pot.fee, 'payout', $1::text, 'payout:' || $1::text, now() - make_interval(days => $3)
		   from pot where pot.balance - pot.fee > 0
		   union all
		   select pot.id, ledger.system_account('platform_fee'), pot.fee, 'fee', $1::text, 'fee:' || $1::text, now() - make_interval(days => $3)
		   from pot where pot.fee > 0
		   returning kind, amount
		 )
		 update public.wallets set balance = balance + moved.amount from moved where id = $2 and moved.kind = 'payout'`,
		[dare, creator, daysAgo],
	)
}

/**
 * One demo dare, played the way a real one is: written as running, boosted
 * (app_private.record_boost), voted on, then settled by the functions the
 * product uses: a finished vote by app_private.resolve_dare (its deadline is
 * set in the past), a rejection or an expiry by app_private.close_dare.
 */
async function seedDare(tx: Queryable, dare: DemoDare): Promise<void> {
	const session = DEMO_SESSIONS[dare.session]
	const reward = dare.boosts[0]?.[0] === dare.author ? dare.boosts[0][1] : 0
	const voted = dare.status === 'completed' || dare.status === 'failed'
	const closed = dare.status === 'rejected' || dare.status === 'expired'
	const written = voted ? 'voting' : closed ? 'open' : dare.status
	await tx.query(
		`insert into public.dares (id, session_id, author_id, description, reward, status, idempotency_key, accepted_at, voting_ends_at)
		values ($1::uuid, $2, $3, $4, $5, $6::text, 'demo:' || $1::text,
			case when $6::text in ('accepted', 'voting') then now() end,
			case when $6::text = 'voting' then now() + make_interval(secs => $7::integer) end)
		on conflict do nothing`,
		[dare.id, session.id, DEMO_USERS[dare.author].id, dare.description, reward, written, voted ? -300 : DEMO_VOTE_SECONDS],
	)
	for (const [index, [who, amount]] of dare.boosts.entries()) {
		await tx.query('select app_private.record_boost($1, $2, $3, $4)', [dare.id, DEMO_USERS[who].id, amount, `demo-boost:${dare.id}:${index}`])
	}
	for (const [who, vote] of dare.votes ?? []) {
		await tx.query('insert into public.votes (dare_id, voter_id, vote) values ($1, $2, $3) on conflict do nothing', [dare.id, DEMO_USERS[who].id, vote])
	}
	if (voted && dare.status === 'completed' && 'daysAgo' in session) await backdateEarning(tx, dare.id, DEMO_USERS[session.creator].id, session.daysAgo)
	if (voted) await tx.query('select app_private.resolve_dare($1)', [dare.id])
	if (closed) await tx.query('select app_private.close_dare($1, $2)', [dare.id, dare.status])
}
