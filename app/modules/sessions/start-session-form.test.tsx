// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { afterAll, afterEach, expect, test } from 'vitest'
import { StartSessionPageForm, type StartSessionActionData } from './start-session-form'
import type { LinkedChannel } from './start-session-button'
import { testI18n, Translated, releaseLiveAnnouncer } from '#tests/support/components'

/**
 * The start-session form's messages with JavaScript (docs/product.md §5.2):
 * a number field's message goes as soon as its value is right, the value it
 * snapped to when left included, and the rule across two fields (free dares
 * at most the dares per viewer) shows as soon as it is broken, before any
 * sending. Conform validates; the fields tell it of their changes.
 */

afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

const i18n = await testI18n('en')
const t = (key: string) => i18n.t(key)
const CHANNELS: LinkedChannel[] = [{ platform: 'twitch', channel: 'mia_plays' }]

function renderForm(actionData?: StartSessionActionData) {
	const Stub = createRoutesStub([
		{
			path: '/en/start-session',
			Component: () => <StartSessionPageForm channels={CHANNELS} needsAgreement={false} actionData={actionData} lang="en" />,
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/start-session']} />
		</Translated>,
	)
}

/** The number field called `label` once React Aria has taken it over (it loads when reached for). */
async function reachFor(label: string): Promise<HTMLInputElement> {
	act(() => screen.getByRole('textbox', { name: label }).focus())
	return waitFor(
		() => {
			const input = screen.getByRole('textbox', { name: label }) as HTMLInputElement
			expect(input.getAttribute('aria-roledescription')).toBeTruthy()
			return input
		},
		{ timeout: 10_000 },
	)
}

const type = (input: HTMLInputElement, text: string) => fireEvent.change(input, { target: { value: text } })
const leave = (input: HTMLInputElement) => act(() => input.blur())
const shown = (key: string) => screen.queryByText(t(key))

test('a number field’s message goes as soon as its value is right, also when leaving snaps it there', async () => {
	// The server refused an empty minimum reward (its answer marks every field as checked, as a sending does).
	renderForm({
		result: {
			status: 'error',
			initialValue: { title: 'Late show', platform: 'twitch', maxDaresPerUser: '5', maxFreeDaresPerUser: '1', minBoost: '', votingDuration: '180' },
			error: { minBoost: ['validation.min-boost-required'] },
			fields: ['title', 'platform', 'maxDaresPerUser', 'maxFreeDaresPerUser', 'minBoost', 'votingDuration'],
		},
		needsAgreement: false,
	})
	expect(shown('validation.min-boost-required')).toBeTruthy()
	const minBoost = await reachFor(t('sessions.min-boost'))
	act(() => minBoost.focus())
	// While typing, the message follows the value.
	type(minBoost, '4')
	await waitFor(() => expect(shown('validation.min-boost-min')).toBeTruthy())
	expect(shown('validation.min-boost-required')).toBeNull()
	type(minBoost, '45')
	leave(minBoost)
	// 45 became 50: nothing to say any more.
	expect(minBoost.value).toBe('50')
	await waitFor(() => expect(shown('validation.min-boost-min')).toBeNull())
	expect(minBoost.getAttribute('aria-invalid')).toBeNull()

	act(() => minBoost.focus())
	type(minBoost, '55')
	await waitFor(() => expect(shown('validation.min-boost-step')).toBeTruthy())
	leave(minBoost)
	expect(minBoost.value).toBe('60')
	await waitFor(() => expect(shown('validation.min-boost-step')).toBeNull())
})

test('free dares above the dares per viewer are named as soon as the field is left, and the message goes once the rule holds', async () => {
	renderForm()
	// The title is still empty: the rule across the two fields is checked anyway (and the title is not nagged about).
	const free = await reachFor(t('sessions.max-free-dares'))
	act(() => free.focus())
	type(free, '9')
	leave(free)
	expect(free.value).toBe('9')
	await waitFor(() => expect(shown('validation.max-free-dares-above-max')).toBeTruthy())
	expect(free.getAttribute('aria-invalid')).toBe('true')
	expect(shown('validation.title-required')).toBeNull()

	const dares = await reachFor(t('sessions.max-dares'))
	act(() => dares.focus())
	type(dares, '10')
	// Right as soon as typed.
	await waitFor(() => expect(shown('validation.max-free-dares-above-max')).toBeNull())
	leave(dares)
	// Lowered again with the arrow key: at once, no leaving needed.
	act(() => dares.focus())
	type(dares, '9')
	leave(dares)
	act(() => dares.focus())
	fireEvent.keyDown(dares, { key: 'ArrowDown' })
	fireEvent.keyUp(dares, { key: 'ArrowDown' })
	expect(dares.value).toBe('8')
	await waitFor(() => expect(shown('validation.max-free-dares-above-max')).toBeTruthy())
})
