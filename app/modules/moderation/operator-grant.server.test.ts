import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { setOperator, UnknownAccountError } from './operator-grant.server'

/** `npm run operator:grant` / `operator:revoke` (scripts/operator.ts): the account by its address, on the owner connection. */
describeEachDatabase('granting and revoking an operator', (getDb) => {
	const isOperator = async (id: string) =>
		(await asUser(getDb(), claimsFor(id), async (tx) => (await tx.query<{ yes: boolean }>('select app_private.is_operator() as yes')).rows[0]!.yes))

	test('finds the account by its address in any case, grants once, revokes once', async () => {
		const db = getDb()
		const id = await createAuthUser(db, 'Moderator@Example.test')
		expect(await isOperator(id)).toBe(false)
		expect(await setOperator(db, ' moderator@example.TEST ', true)).toEqual({ userId: id, email: 'Moderator@Example.test', changed: true })
		expect(await isOperator(id)).toBe(true)
		expect((await setOperator(db, 'moderator@example.test', true)).changed).toBe(false)
		expect((await setOperator(db, 'moderator@example.test', false)).changed).toBe(true)
		expect(await isOperator(id)).toBe(false)
		expect((await setOperator(db, 'moderator@example.test', false)).changed).toBe(false)
	})

	test('an unknown address changes nothing and says so', async () => {
		const db = getDb()
		const error = await rejectionOf(setOperator(db, 'nobody@example.test', true))
		expect(error).toBeInstanceOf(UnknownAccountError)
		expect(error.message).toBe('no account with the e-mail address nobody@example.test')
		expect((await db.query('select * from app_private.operators')).rows).toEqual([])
	})
})
