// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterAll, afterEach, expect, test } from 'vitest'
import { releaseLiveAnnouncer } from '#tests/support/components'
import { TranslationProvider } from '#app/i18n/translation'
import { NumberField } from './number-field'

afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

const limit = { min: 10, max: 100_000, step: 10 }

/**
 * React Aria's field arrives in its own chunk and replaces every plain number
 * field of the page at once. Only the field that has the focus when the
 * swap is committed takes it over: between the chunk's arrival and React's
 * commit a person (or CI's Playwright) may have moved on to another field,
 * and pulling the focus back sent the next digits into the wrong field.
 */
test('when React Aria takes over, the focus stays on the field that has it at that moment, with its caret', async () => {
	render(
		<TranslationProvider>
			<NumberField name="minBoost" label="Minimum" limit={limit} defaultValue={200} locale="en" />
			<NumberField name="votingDuration" label="Voting" limit={limit} defaultValue={1200} locale="en" />
		</TranslationProvider>,
	)
	const [first, second] = screen.getAllByRole('textbox') as HTMLInputElement[]
	// Reaching for the first field loads React Aria.
	act(() => first!.focus())
	// The chunk has arrived (its own callback, registered first, has asked
	// React to swap the fields); React has not committed yet when the focus
	// moves on to the second field, its digits selected.
	await import('./aria-number-field')
	const swapped = () => document.querySelectorAll('input[aria-roledescription]') as NodeListOf<HTMLInputElement>
	expect(swapped()).toHaveLength(0)
	second!.focus()
	// "200" of "1200" selected.
	second!.setSelectionRange(1, 4)
	await waitFor(() => expect(swapped()).toHaveLength(2))
	const [firstAria, secondAria] = swapped()
	expect(firstAria!.value).toBe('200')
	expect(secondAria!.value).toBe('1,200')
	expect(document.activeElement).toBe(secondAria)
	// The same digits selected in the grouped value.
	expect([secondAria!.selectionStart, secondAria!.selectionEnd]).toEqual([1, 5])
})
