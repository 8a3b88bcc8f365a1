import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { expect, test } from 'vitest'
import { revalidateUnlessAnswered } from './answer'

/** When the page's loaders run again after a dare form its script sent (answer.ts). */
function args(form: Record<string, string>, actionResult: unknown): ShouldRevalidateFunctionArgs {
	const formData = new FormData()
	for (const [k, v] of Object.entries(form)) formData.set(k, v)
	const page = new URL('https://dares.example/en/session/s1')
	return { formData, formMethod: 'POST', actionResult, currentUrl: page, nextUrl: page, defaultShouldRevalidate: true } as ShouldRevalidateFunctionArgs
}

test('answered with data: nothing is read again', () => {
	expect(revalidateUnlessAnswered(args({ intent: 'boost', respond: 'data' }, { ok: true }))).toBe(false)
	expect(revalidateUnlessAnswered(args({ intent: 'boost', respond: 'data' }, { ok: false, error: 'x' }))).toBe(false)
})

test('answered with a redirect (to sign in, to the shop, to the account steps): the loaders run, and the toast with them', () => {
	expect(revalidateUnlessAnswered(args({ intent: 'boost', respond: 'data' }, undefined))).toBe(true)
})

test('any other form: as React Router would', () => {
	expect(revalidateUnlessAnswered(args({ intent: 'accept' }, undefined))).toBe(true)
	expect(revalidateUnlessAnswered({ ...args({ intent: 'stop' }, undefined), defaultShouldRevalidate: false })).toBe(false)
})

test('a navigation that only drops or adds ?report= (a report form closed in place): nothing is read again', () => {
	const nav = (from: string, to: string, formMethod?: string) =>
		revalidateUnlessAnswered({ currentUrl: new URL(from), nextUrl: new URL(to), formMethod, defaultShouldRevalidate: true } as ShouldRevalidateFunctionArgs)
	const page = 'https://dares.example/en/session/s1'
	expect(nav(`${page}?report=d2&utm_source=chat`, `${page}?utm_source=chat`)).toBe(false)
	expect(nav(page, `${page}?report=d2`)).toBe(false)
	// Anything else changed too, the same address again, or a form sent: as React Router would.
	expect(nav(`${page}?report=d2`, `${page}?utm_source=chat`)).toBe(true)
	expect(nav(`${page}?report=d2`, 'https://dares.example/en/session/s2')).toBe(true)
	expect(nav(page, page)).toBe(true)
	expect(nav(`${page}?report=d2`, page, 'POST')).toBe(true)
})
