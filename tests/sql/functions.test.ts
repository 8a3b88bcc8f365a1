import { beforeEach, expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { toAppError } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'

async function isAvailable(db: Database, name: string | null, userId: string | null = null): Promise<boolean | null> {
	const { rows } = await asUser(db, userId ? claimsFor(userId) : null, (tx) =>
		tx.query<{ ok: boolean | null }>('select public.is_username_available($1) as ok', [name]),
	)
	return rows[0]?.ok ?? null
}

async function consented(db: Database, userId: string | null, tos: string | null, ca: string | null) {
	return asUser(db, userId ? claimsFor(userId) : null, async (tx) => {
		const { rows } = await tx.query<{ terms_of_service: boolean; creator_agreement: boolean }>(
			'select * from public.has_consented($1, $2)',
			[tos, ca],
		)
		return rows
	})
}

function giveConsent(db: Database, userId: string | null, kind: string | null, version: string | null) {
	return asUser(db, userId ? claimsFor(userId) : null, (tx) => tx.query('select public.give_consent($1, $2)', [kind, version]))
}

describeEachDatabase('is_username_available', (getDb) => {
	test('a free, valid name is available to visitors and users', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		expect(await isAvailable(db, 'new.name_1')).toBe(true)
		expect(await isAvailable(db, 'new.name_1', user)).toBe(true)
		expect(await isAvailable(db, 'a'.repeat(30))).toBe(true)
		// Checked as the form will store it: trimmed and lower-cased.
		expect(await isAvailable(db, '  New.Name_1 ')).toBe(true)
	})

	test('a taken name is unavailable, whatever its case or surrounding spaces', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await db.query(`insert into public.profiles (id, username) values ($1, 'streamfan')`, [user])
		for (const name of ['streamfan', 'StreamFan', '  STREAMFAN ']) {
			expect(await isAvailable(db, name), name).toBe(false)
		}
		expect(await isAvailable(db, 'streamfan2')).toBe(true)
	})

	test('an invalid name is never available', async () => {
		const db = getDb()
		for (const name of ['', '   ', 'a'.repeat(31), 'with space', 'dash-ed', 'émile', 'semi;colon', 'emoji🙂', null]) {
			expect(await isAvailable(db, name), String(name)).toBe(false)
		}
	})
})

describeEachDatabase('has_consented / give_consent', (getDb) => {
	beforeEach(async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: '2026-11-01' })
		await publishDocumentVersions(db, { terms_of_service: 'v2', creator_agreement: 'v1' })
	})

	test('visitors get one row, not consented', async () => {
		expect(await consented(getDb(), null, 'v1', 'v1')).toEqual([{ terms_of_service: false, creator_agreement: false }])
	})

	test('consent is recorded per kind and per version', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		expect(await consented(db, user, 'v1', 'v1')).toEqual([{ terms_of_service: false, creator_agreement: false }])

		await giveConsent(db, user, 'terms_of_service', 'v1')
		expect(await consented(db, user, 'v1', 'v1')).toEqual([{ terms_of_service: true, creator_agreement: false }])
		// A new terms version has to be accepted again.
		expect(await consented(db, user, 'v2', 'v1')).toEqual([{ terms_of_service: false, creator_agreement: false }])

		await giveConsent(db, user, 'creator_agreement', '2026-11-01')
		expect(await consented(db, user, 'v1', '2026-11-01')).toEqual([{ terms_of_service: true, creator_agreement: true }])
		// The creator agreement's acceptance is not the terms' (same version string).
		expect(await consented(db, user, '2026-11-01', 'v1')).toEqual([{ terms_of_service: false, creator_agreement: false }])
	})

	test("one user's consent says nothing about another's", async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await giveConsent(db, a, 'terms_of_service', 'v1')
		expect(await consented(db, b, 'v1', 'v1')).toEqual([{ terms_of_service: false, creator_agreement: false }])
	})

	test('giving the same consent twice keeps the first acceptance', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		await giveConsent(db, user, 'terms_of_service', 'v1')
		const first = await db.query<{ accepted_at: Date }>('select accepted_at from public.consents where user_id = $1', [user])
		await giveConsent(db, user, 'terms_of_service', 'v1')
		const again = await db.query<{ accepted_at: Date }>('select accepted_at from public.consents where user_id = $1', [user])
		expect(again.rows).toEqual(first.rows)
	})

	test('refusals are error- codes', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		const cases: Array<[string | null, string | null, string | null, string]> = [
			[null, 'terms_of_service', 'v1', 'error-not-authenticated'],
			[user, 'privacy_policy', 'v1', 'error-invalid-consent-type'],
			[user, null, 'v1', 'error-invalid-consent-type'],
			[user, 'terms_of_service', '', 'error-invalid-consent-version'],
			[user, 'terms_of_service', null, 'error-invalid-consent-version'],
			[user, 'terms_of_service', 'v'.repeat(33), 'error-invalid-consent-version'],
			[user, 'terms_of_service', 'v 1', 'error-invalid-consent-version'],
			// Well-formed, but never published.
			[user, 'terms_of_service', 'v3', 'error-invalid-consent-version'],
			[user, 'terms_of_service', '2026-11-01', 'error-invalid-consent-version'],
			[user, 'creator_agreement', 'v2', 'error-invalid-consent-version'],
		]
		for (const [who, kind, version, code] of cases) {
			const error = await rejectionOf(giveConsent(db, who, kind, version))
			expect(error.code, code).toBe('P0001')
			expect(toAppError(error)?.code, `${kind} ${version}`).toBe(code)
		}
		const { rows } = await db.query('select * from public.consents')
		expect(rows).toEqual([])
	})
})
