import type { Database } from './database.server'

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
} as const

export type DemoUserKey = keyof typeof DEMO_USERS

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
		for (const id of created) {
			await tx.query('select * from ledger.grant_demo_coins($1, $2)', [id, DEMO_BALANCE])
		}

		for (const [key, link] of Object.entries(DEMO_CREATOR_CHANNELS)) {
			const column = `${link.platform}_channel`
			await tx.query(
				`insert into public.creator_profiles (id, ${column}) values ($1, $2) on conflict do nothing`,
				[DEMO_USERS[key as DemoUserKey].id, link.channel],
			)
		}

		for (const session of Object.values(DEMO_SESSIONS)) {
			const ended = session.status === 'ended'
			// Without a conflict target: the id, but also "one active session
			// per creator/channel" when the demo creator has since started
			// another one, mean "already there".
			await tx.query(
				`insert into public.sessions (id, creator_id, status, title, platform, channel, created_at, ended_at)
				values (
					$1, $2, $3, $4, $5, $6,
					case when $7::boolean then now() - interval '2 days' else now() end,
					case when $7::boolean then now() - interval '2 days' + interval '3 hours' end
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
				],
			)
		}
	})
}
