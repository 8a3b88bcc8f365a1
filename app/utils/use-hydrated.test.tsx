// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, expect, test, vi } from 'vitest'
import { HydratedProvider, useHydrated } from './use-hydrated'

afterEach(() => {
	cleanup()
	delete document.documentElement.dataset.hydrated
})

function Probe({ seen }: { seen: boolean[] }) {
	const hydrated = useHydrated()
	seen.push(hydrated)
	return <p>{hydrated ? 'hydrated' : 'server'}</p>
}

test('under the provider: false on the server and while hydrating, then true from a render of its own, which marks <html>', async () => {
	const seen: boolean[] = []
	const container = document.createElement('div')
	container.innerHTML = renderToString(
		<HydratedProvider>
			<Probe seen={seen} />
		</HydratedProvider>,
	)
	expect(container.textContent).toBe('server')
	const onRecoverableError = vi.fn()
	await act(async () => {
		hydrateRoot(
			container,
			<HydratedProvider>
				<Probe seen={seen} />
			</HydratedProvider>,
			{ onRecoverableError },
		)
	})
	expect(onRecoverableError).not.toHaveBeenCalled()
	expect(container.textContent).toBe('hydrated')
	// The server's render, hydration's, then the provider's: hydration itself asks for no render again.
	expect(seen).toEqual([false, false, true])
	expect(document.documentElement.dataset.hydrated).toBe('')
})

test('without the provider (a component test): false on the server, true in the browser’s own render', () => {
	expect(renderToString(<Probe seen={[]} />)).toBe('<p>server</p>')
	expect(render(<Probe seen={[]} />).container.textContent).toBe('hydrated')
})
