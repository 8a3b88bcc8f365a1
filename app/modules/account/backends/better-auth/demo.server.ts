import { hashPassword } from 'better-auth/crypto'
import type { Database } from '#app/db/database.server'
import { DEMO_PASSWORD, DEMO_USERS } from '#app/db/seed.server'

/**
 * Lets the demo accounts (seedDemoData: auth.users rows only) sign in on the
 * local platform: a Better Auth user with the same id and a password
 * credential (DEMO_PASSWORD). Called only when DEMO_DATA is on. Accounts that
 * already have sign-in data are left alone (a developer may have changed
 * the password or deleted the account).
 */
export async function seedDemoSignIns(db: Database): Promise<void> {
	const hash = await hashPassword(DEMO_PASSWORD)
	await db.transaction(async (tx) => {
		for (const user of Object.values(DEMO_USERS)) {
			const { rows } = await tx.query<{ present: boolean; taken: boolean }>(
				`select exists (select 1 from auth.users where id = $1) as present,
				        exists (select 1 from better_auth."user" where id = $1 or email = $2) as taken`,
				[user.id, user.email],
			)
			if (!rows[0]?.present || rows[0].taken) continue
			// The auth.users row exists already: the shim's insert trigger, which
			// would create it, stays out of this one insert.
			await tx.query('alter table better_auth."user" disable trigger sync_auth_user_insert')
			await tx.query(
				`insert into better_auth."user" (id, name, email, "emailVerified", locale, "createdAt", "updatedAt")
				 values ($1, '', $2, true, 'en', now(), now())`,
				[user.id, user.email],
			)
			// The deferred foreign key's check is pending: run it now, so that the
			// table is no longer in use by this transaction and can be altered back.
			await tx.query('set constraints all immediate')
			await tx.query('alter table better_auth."user" enable trigger sync_auth_user_insert')
			await tx.query(
				`insert into better_auth.account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
				 values (gen_random_uuid(), $1::text, 'credential', $1::uuid, $2, now(), now())`,
				[user.id, hash],
			)
		}
	})
}
