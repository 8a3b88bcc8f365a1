import type { ShouldRevalidateFunctionArgs } from 'react-router'
import { expect, test } from 'vitest'
import { revalidateUnlessAnswered } from './answer'

/** When the page's loaders run again after a dare form its script sent (answer.ts). */
function args(form: Record<string, string>, actionResult: unknown): ShouldRevalidateFunctionArgs {
	const formData = new FormData()
	for (const [k, v] of Object.entries(form)) formData.set(k, v)
	return { formData, actionResult, defaultShouldRevalidate: true } as ShouldRevalidateFunctionArgs
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
