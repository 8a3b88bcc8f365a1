// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { act, cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { sonnerRequested, toast } from './toast'
import { TranslationProvider } from '#app/i18n/translation'
import { AppToaster, TOASTER_DEFAULTS } from './toasts'

afterEach(cleanup)

test('the toast defaults of docs/product.md §15.1: 3 visible, 4000 ms, gap 14 px, width 356 px, swipe 45 px, bottom right', () => {
	expect(TOASTER_DEFAULTS).toEqual({ position: 'bottom-right', visibleToasts: 3, duration: 4000, gap: 14, width: 356, swipeThreshold: 45 })
})

test('the toaster renders at the bottom right with the width and gap of docs/product.md §15.1 and shows at most three toasts', async () => {
	const { container } = render(
		<TranslationProvider>
			<AppToaster />
		</TranslationProvider>,
	)
	// No toast yet: no toaster, and sonner not even fetched (issue 11's JavaScript budget).
	expect(sonnerRequested()).toBe(false)
	expect(container.ownerDocument.querySelector('[data-sonner-toaster]')).toBeNull()
	await act(async () => {
		for (const n of [1, 2, 3, 4, 5]) toast.info(`Toast ${n}`)
	})
	// The first toast fetches sonner and mounts the toaster; none of the five is lost on the way.
	await waitFor(() => expect(container.ownerDocument.querySelectorAll('[data-sonner-toast]')).toHaveLength(5))
	const list = container.ownerDocument.querySelector<HTMLOListElement>('ol[data-sonner-toaster]')
	expect(list).not.toBeNull()
	expect(list!.dataset.yPosition).toBe('bottom')
	expect(list!.dataset.xPosition).toBe('right')
	expect(list!.style.getPropertyValue('--width')).toBe('356px')
	expect(list!.style.getPropertyValue('--gap')).toBe('14px')
	const visible = [...list!.querySelectorAll('[data-sonner-toast]')].filter((el) => (el as HTMLElement).dataset.visible === 'true')
	expect(visible).toHaveLength(3)
})

test('sonner still dismisses a toast after a 45 px swipe (a fixed value it offers no option for)', () => {
	// why: sonner hard-codes the swipe threshold; this reads its build so an upgrade that changes it fails here.
	const require = createRequire(import.meta.url)
	const dist = join(dirname(require.resolve('sonner')), 'index.mjs')
	expect(readFileSync(dist, 'utf8')).toMatch(/const SWIPE_THRESHOLD = 45;/)
	expect(readFileSync(dist, 'utf8')).toMatch(/const TOAST_WIDTH = 356;/)
})
