import { expect, test } from 'vitest'
import { SignUpSchema, UsernameSchema } from './schemas'
import { checkUsername } from './username'

test('sign-up: valid e-mail, password 6 to 100, inputs at most 100 (docs/product.md §7.1)', () => {
	expect(SignUpSchema.safeParse({ email: ' mia@example.com ', password: '123456' }).data).toEqual({
		email: 'mia@example.com',
		password: '123456',
	})
	const issues = (input: unknown) => SignUpSchema.safeParse(input).error?.issues.map((i) => i.message) ?? []
	expect(issues({ email: 'not-an-email', password: '123456' })).toEqual(['validation.email-invalid'])
	expect(issues({ email: `${'a'.repeat(95)}@x.com`, password: '123456' })).toEqual(['validation.email-too-long'])
	expect(issues({ email: 'a@b.co', password: '12345' })).toEqual(['validation.password-too-short'])
	expect(issues({ email: 'a@b.co', password: 'x'.repeat(101) })).toEqual(['validation.password-too-long'])
	expect(issues({ email: 'a@b.co', password: 'x'.repeat(100) })).toEqual([])
})

test('usernames are lower-cased, 1 to 30 of a-z 0-9 . _', () => {
	expect(UsernameSchema.parse('Mia.Plays_1')).toBe('mia.plays_1')
	expect(UsernameSchema.safeParse('').error?.issues[0]?.message).toBe('validation.username-required')
	expect(UsernameSchema.safeParse('a'.repeat(31)).error?.issues[0]?.message).toBe('validation.username-too-long')
	expect(UsernameSchema.safeParse('mia-plays').error?.issues[0]?.message).toBe('validation.username-invalid')
	expect(UsernameSchema.safeParse('müller').error?.issues[0]?.message).toBe('validation.username-invalid')
})

test("the browser's username check (no Zod) gives UsernameSchema's answers", () => {
	for (const value of ['Mia.Plays_1', '  mia  ', '', '   ', 'a'.repeat(30), 'a'.repeat(31), ' ' + 'a'.repeat(30) + ' ', 'mia-plays', 'mía', 'MIA', 'a b', '._.']) {
		const schema = UsernameSchema.safeParse(value)
		const check = checkUsername(value)
		expect(check, JSON.stringify(value)).toEqual(schema.success ? { ok: true, username: schema.data } : { ok: false, error: schema.error.issues[0]!.message })
	}
})
