// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, Form } from 'react-router'
import { afterAll, afterEach, expect, test } from 'vitest'
import { DARE_LIMITS } from '#app/modules/dares/limits'
import { NumberField } from './number-field'
import { SESSION_LIMITS } from './schemas'
import { testI18n, Translated, releaseLiveAnnouncer } from '#tests/support/components'

/**
 * The number field from the keyboard, in Turkish (React Aria formats and
 * parses by the page's locale: 100000 is "100.000" in Turkish), as the
 * start-session form and the boost form use it. What the end-to-end test
 * 'the number fields keep to their limits from the keyboard (tr)'
 * (tests/e2e/sessions.spec.ts) checked in a browser, here on the component:
 * the keys step by the step and stop at the limits; a value off the step or
 * beyond a limit is snapped or clamped when a clamping field (the
 * start-session settings) is left, and kept but refused by a refusing one
 * (the boost: docs/product.md §15.2); the form posts the committed number
 * under the field's name. The swap from the plain field to React Aria's
 * keeps focus and caret: number-field.dom.test.tsx.
 */

afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

const i18n = await testI18n('tr')
const tr = (key: string) => i18n.t(key)

/** The start-session form's two fields with these limits, in Turkish, in a form; clamping, as that form's are. */
function renderSessionFields({ onCommit }: { onCommit?: (value: number) => void } = {}) {
	render(
		<Translated i18n={i18n}>
			<form aria-label="start">
				<NumberField
					name="minBoost"
					label={tr('sessions.min-boost')}
					limit={SESSION_LIMITS.minBoost}
					defaultValue={SESSION_LIMITS.minBoost.default}
					locale="tr"
					outOfRange="clamp"
					onCommit={onCommit}
				/>
				<NumberField
					name="votingDuration"
					label={tr('sessions.voting-duration')}
					limit={SESSION_LIMITS.votingDuration}
					defaultValue={SESSION_LIMITS.votingDuration.default}
					locale="tr"
					outOfRange="clamp"
				/>
			</form>
		</Translated>,
	)
}

/** The field called `label` once React Aria has taken it over (it loads when the field is reached for; the focus comes along). */
async function reachFor(label: string): Promise<HTMLInputElement> {
	act(() => screen.getByRole('textbox', { name: label }).focus())
	// The chunk's first import in a test run takes its time.
	return waitFor(() => {
		const input = screen.getByRole('textbox', { name: label }) as HTMLInputElement
		// React Aria's field has a role description ("Sayı alanı" in Turkish); the plain one has none.
		expect(input.getAttribute('aria-roledescription')).toBe('Sayı alanı')
		expect(document.activeElement).toBe(input)
		return input
	}, { timeout: 10_000 })
}

function press(input: HTMLInputElement, key: string) {
	fireEvent.keyDown(input, { key })
	fireEvent.keyUp(input, { key })
}

/** Types `text` over the field's value and leaves the field (where React Aria commits). */
function typeAndLeave(input: HTMLInputElement, text: string) {
	act(() => input.focus())
	fireEvent.change(input, { target: { value: text } })
	act(() => input.blur())
}

/** What the form would post, by name. */
function posted(): Record<string, string> {
	const form = screen.getByRole('form', { name: 'start' }) as HTMLFormElement
	return Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)]))
}

// First: React Aria loads once per page visit (this file), and from then on every field starts as React Aria's.
test('the label is the field’s accessible name, before and after React Aria takes over', async () => {
	renderSessionFields()
	// Before: the plain field, found by its Turkish label.
	const plain = screen.getByRole('textbox', { name: tr('sessions.min-boost') })
	expect(plain.getAttribute('aria-roledescription')).toBeNull()
	const aria = await reachFor(tr('sessions.min-boost'))
	expect(aria).not.toBe(plain)
	expect(screen.getByRole('textbox', { name: tr('sessions.voting-duration') })).toBeTruthy()
	// The steppers are named after the field too (React Aria's Turkish "azalt"/"arttır").
	expect(screen.getByRole('button', { name: `arttır ${tr('sessions.min-boost')}` })).toBeTruthy()
	expect(screen.getByRole('button', { name: `azalt ${tr('sessions.min-boost')}` })).toBeTruthy()
})

test('the keys step by the step (ten steps for Page Up/Down) and stop at the minimum and the maximum, formatted in Turkish', async () => {
	renderSessionFields()
	const minBoost = await reachFor(tr('sessions.min-boost'))
	expect(minBoost.value).toBe('200')
	press(minBoost, 'ArrowUp')
	expect(minBoost.value).toBe('210')
	press(minBoost, 'PageUp')
	expect(minBoost.value).toBe('310')
	press(minBoost, 'PageDown')
	press(minBoost, 'ArrowDown')
	expect(minBoost.value).toBe('200')
	press(minBoost, 'Home')
	expect(minBoost.value).toBe('50')
	press(minBoost, 'ArrowDown')
	expect(minBoost.value).toBe('50')
	press(minBoost, 'PageDown')
	expect(minBoost.value).toBe('50')
	press(minBoost, 'End')
	// Turkish groups thousands with a dot.
	expect(minBoost.value).toBe('100.000')
	press(minBoost, 'ArrowUp')
	press(minBoost, 'PageUp')
	expect(minBoost.value).toBe('100.000')
	expect(posted().minBoost).toBe('100000')
	// The voting duration steps by five.
	const voting = await reachFor(tr('sessions.voting-duration'))
	press(voting, 'ArrowUp')
	expect(voting.value).toBe('185')
})

test('a letter is refused; a number typed in Turkish is read as one', async () => {
	renderSessionFields()
	const minBoost = await reachFor(tr('sessions.min-boost'))
	press(minBoost, 'End')
	fireEvent.change(minBoost, { target: { value: '100.000a' } })
	expect(minBoost.value).toBe('100.000')
	// "1.250" is one thousand two hundred and fifty in Turkish (not 1.25).
	typeAndLeave(minBoost, '1.250')
	expect(minBoost.value).toBe('1.250')
	expect(posted().minBoost).toBe('1250')
})

test('leaving the field snaps a value off the step to the step, and clamps one below the minimum or above the maximum', async () => {
	renderSessionFields()
	const voting = await reachFor(tr('sessions.voting-duration'))
	typeAndLeave(voting, '33')
	expect(voting.value).toBe('35')
	const minBoost = await reachFor(tr('sessions.min-boost'))
	typeAndLeave(minBoost, '57')
	expect(minBoost.value).toBe('60')
	typeAndLeave(minBoost, '10')
	expect(minBoost.value).toBe('50')
	typeAndLeave(minBoost, '2500000')
	expect(minBoost.value).toBe('100.000')
	typeAndLeave(voting, '9999')
	expect(voting.value).toBe('3.600')
	// The form posts the committed numbers, under the fields' names, without grouping.
	expect(posted()).toEqual({ minBoost: '100000', votingDuration: '3600' })
})

test('a clamping field tells its form of every change, as a native input would, and reports what it committed', async () => {
	const commits: number[] = []
	renderSessionFields({ onCommit: (value) => commits.push(value) })
	const heard: string[] = []
	const form = screen.getByRole('form', { name: 'start' })
	// What a form library listening for input events (Conform) reads: the named input's value at each event.
	form.addEventListener('input', (event) => {
		const target = event.target as HTMLInputElement
		if (target.name === 'minBoost') heard.push(target.value)
	})
	const minBoost = await reachFor(tr('sessions.min-boost'))
	act(() => minBoost.focus())
	fireEvent.change(minBoost, { target: { value: '4' } })
	fireEvent.change(minBoost, { target: { value: '45' } })
	act(() => minBoost.blur())
	expect(minBoost.value).toBe('50')
	// As typed, then the snapped value: the form revalidates after the snap, too.
	expect(heard).toEqual(['4', '45', '50'])
	expect(commits).toEqual([50])
	press(minBoost, 'ArrowUp')
	expect(heard.at(-1)).toBe('60')
	await waitFor(() => expect(commits).toEqual([50, 60]))
})

/** The boost form as the dares panel has it (its submit handler runs only for a form the browser lets through), sending to a stub action. */
function renderBoostForm() {
	const sent: FormData[] = []
	const Stub = createRoutesStub([
		{
			path: '/tr/twitch/mia',
			Component: () => (
				<Form method="post" className="dare__boost">
					<input type="hidden" name="dareId" value="d1" />
					<NumberField
						name="amount"
						label={tr('dares.boost-amount')}
						limit={DARE_LIMITS.boost}
						defaultValue={DARE_LIMITS.boost.default}
						locale="tr"
						refusals="boost"
					/>
					<button type="submit" name="intent" value="boost">
						{tr('dares.boost')}
					</button>
				</Form>
			),
			action: async ({ request }) => {
				sent.push(await request.formData())
				return null
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/tr/twitch/mia']} />
		</Translated>,
	)
	return sent
}

test('the boost refuses an amount below the minimum, off the step or above the maximum: kept as typed, said in the boost’s words, nothing sent', async () => {
	const sent = renderBoostForm()
	const amount = await reachFor(tr('dares.boost-amount'))
	const boost = screen.getByRole('button', { name: tr('dares.boost') })
	const refusal = () => screen.queryByRole('alert')?.textContent ?? null
	const send = async () => {
		fireEvent.click(boost)
		await new Promise((resolve) => setTimeout(resolve, 50))
	}

	typeAndLeave(amount, '5')
	// Not rounded up to 10: a boost is charged as typed or not at all.
	expect(amount.value).toBe('5')
	const belowMin = i18n.t('number-field.boost-below-min', { min: '10' })
	expect(amount.validationMessage).toBe(belowMin)
	// Left, it says nothing yet (a reason appearing then moved the button from under the pointer).
	expect(refusal()).toBeNull()
	await send()
	expect(refusal()).toBe(belowMin)
	expect(amount.getAttribute('aria-invalid')).toBe('true')
	typeAndLeave(amount, '1.234')
	expect(amount.value).toBe('1.234')
	expect(refusal()).toBe(i18n.t('number-field.boost-off-step', { step: '10' }))
	typeAndLeave(amount, '2000000')
	expect(amount.value).toBe('2.000.000')
	expect(refusal()).toBe(i18n.t('number-field.boost-above-max', { max: '1.000.000' }))
	await send()
	expect(sent).toHaveLength(0)

	// Allowed again: the reason goes at once (before the field is left), and the amount is sent as typed.
	act(() => amount.focus())
	fireEvent.change(amount, { target: { value: '1.230' } })
	expect(refusal()).toBeNull()
	expect(amount.getAttribute('aria-invalid')).toBeNull()
	expect(amount.validationMessage).toBe('')
	act(() => amount.blur())
	press(amount, 'ArrowUp')
	expect(amount.value).toBe('1.240')
	fireEvent.click(boost)
	await waitFor(() => expect(sent).toHaveLength(1))
	expect(Object.fromEntries(sent[0]!)).toEqual({ dareId: 'd1', amount: '1240', intent: 'boost' })
})

test('a refused send says why under the field, instead of the browser’s bubble, and puts the focus there', async () => {
	renderBoostForm()
	const amount = await reachFor(tr('dares.boost-amount'))
	typeAndLeave(amount, '5')
	const invalid = new Event('invalid', { cancelable: true })
	act(() => void amount.dispatchEvent(invalid))
	expect(invalid.defaultPrevented).toBe(true)
	expect(screen.getByRole('alert').textContent).toBe(i18n.t('number-field.boost-below-min', { min: '10' }))
	expect(document.activeElement).toBe(amount)
})

test('before hydration (and without JavaScript) it is a number input with the same limits, which the browser enforces', () => {
	// The server's render: useHydrated is false there.
	const html = renderToString(
		<Translated i18n={i18n}>
			<NumberField name="minBoost" label={tr('sessions.min-boost')} limit={SESSION_LIMITS.minBoost} defaultValue={200} locale="tr" />
			<NumberField name="votingDuration" label={tr('sessions.voting-duration')} limit={SESSION_LIMITS.votingDuration} defaultValue={180} locale="tr" />
		</Translated>,
	)
	const container = document.createElement('div')
	container.innerHTML = html
	const inputs = [...container.querySelectorAll('input')]
	expect(inputs.map((input) => [input.name, input.type, input.min, input.max, input.step, input.value])).toEqual([
		['minBoost', 'number', '50', '100000', '10', '200'],
		['votingDuration', 'number', '30', '3600', '5', '180'],
	])
	// Each labelled by its own label.
	for (const input of inputs) expect(container.querySelector(`label[for="${input.id}"]`)?.textContent).toBe(tr(input.name === 'minBoost' ? 'sessions.min-boost' : 'sessions.voting-duration'))
})
