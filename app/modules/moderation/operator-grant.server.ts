import type { Queryable } from '#app/db/database.server'

/**
 * Makes the account with this e-mail address an operator, or no longer one
 * (app_private.operators, supabase/schemas/account.sql). Owner connection
 * only: no API role may write that table, so nobody becomes an operator
 * through the Data API. The account is found in auth.users, where both
 * platforms keep every account (the local platform mirrors its Better Auth
 * users there). `npm run operator:grant` / `operator:revoke` (scripts/operator.ts).
 */
export type OperatorChange = { userId: string; email: string; changed: boolean }

export class UnknownAccountError extends Error {
	constructor(readonly email: string) {
		super(`no account with the e-mail address ${email}`)
		this.name = 'UnknownAccountError'
	}
}

export async function setOperator(db: Queryable, email: string, grant: boolean): Promise<OperatorChange> {
	const { rows } = await db.query<{ id: string; email: string }>(
		'select id, email::text as email from auth.users where lower(email) = lower($1) order by created_at limit 2',
		[email.trim()],
	)
	const user = rows[0]
	if (!user) throw new UnknownAccountError(email)
	// Two accounts with one address (auth.users allows it for SSO users): naming either would be a guess.
	if (rows.length > 1) throw new Error(`more than one account has the e-mail address ${email}`)
	const { rows: done } = grant
		? await db.query<{ user_id: string }>('insert into app_private.operators (user_id) values ($1) on conflict do nothing returning user_id', [user.id])
		: await db.query<{ user_id: string }>('delete from app_private.operators where user_id = $1 returning user_id', [user.id])
	return { userId: user.id, email: user.email, changed: done.length > 0 }
}
