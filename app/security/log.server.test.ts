import { expect, test } from 'vitest'
import { describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { describeError, redact } from './log.server'

describeEachDatabase('logging a failed query', (getDb) => {
	test('a NUL byte in a query parameter: the logged error carries neither the parameters nor the address', async () => {
		const address = 'victim.person@example.com'
		const error = await rejectionOf(getDb().query('select $1::text as a, $2::text as b', [address, 'x\u0000y']))
		expect(error.message).toBeTruthy()
		expect(JSON.stringify(Object.entries(error))).not.toContain(address)
		const line = describeError(error)
		expect(line).toMatch(/database 22021|database 22P05|invalid byte sequence/i)
		expect(line).not.toContain(address)
		expect(line).not.toContain('x\u0000y')
	})

	test('a violated unique key: the logged error does not quote the duplicate value', async () => {
		const db = getDb()
		await db.query('create temporary table t (email text unique)')
		await db.query('insert into t values ($1)', ['dup.person@example.com'])
		const error = await rejectionOf(db.query('insert into t values ($1)', ['dup.person@example.com']))
		expect(describeError(error)).not.toContain('dup.person@example.com')
		expect(describeError(error)).toContain('23505')
	})

	test('a bad value quoted in the message is masked', async () => {
		const error = await rejectionOf(getDb().query('select $1::uuid', ['someone@example.com']))
		expect(error.message).toContain('someone@example.com')
		expect(describeError(error)).not.toContain('someone@example.com')
	})
})

test('addresses and IPs are masked in any message', () => {
	expect(redact('sign-in failed for a.b+c@mail.example.org from 203.0.113.9 and ::ffff:10.0.0.1 and 2001:db8::1')).toBe(
		'sign-in failed for <address> from <ip> and <ip> and <ip>',
	)
	expect(describeError(new Error('mail to x@y.example failed'))).toMatch(/^Error: mail to <address> failed/)
})
