// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"disableCSSFileLoading":true,"handleDisabledFileLoadingAsSuccess":true}}
import { act, cleanup, render } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, Link, Outlet } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { InlineStylesheetProvider, Stylesheets } from './stylesheets'

/**
 * The page's stylesheets (docs/decisions/053-first-paint.md): inline in the
 * server's HTML, linked only by a client-side navigation that adds one. That
 * every page is styled, with JavaScript and without: tests/e2e.
 */

const BUILT: Record<string, string> = {
	'/assets/app.css': '.app{color:red}',
	'/assets/sessions.css': '.dare>.pot{color:gold}',
}

const Routes = createRoutesStub([
	{
		path: '/',
		handle: { stylesheets: ['/assets/app.css'] },
		Component: () => (
			<>
				<Stylesheets />
				<Outlet />
			</>
		),
		children: [
			{
				path: 'en',
				handle: { stylesheets: ['/assets/sessions.css', '/assets/app.css'] },
				Component: () => <Link to="/shop">shop</Link>,
			},
			{ path: 'shop', handle: { stylesheets: ['/assets/shop.css'] }, Component: () => <p>shop</p> },
		],
	},
])

afterEach(() => {
	cleanup()
	document.head.innerHTML = ''
})

test('the server puts the matched routes’ stylesheets inline, root first, each once, as one style React hoists', () => {
	const html = renderToString(
		<InlineStylesheetProvider value={(href) => BUILT[href]}>
			<Routes initialEntries={['/en']} />
		</InlineStylesheetProvider>,
	)
	expect(html).toContain('<style data-precedence="app" data-href="/assets/app.css /assets/sessions.css">.app{color:red}.dare>.pot{color:gold}</style>')
	expect(html).not.toContain('<link')
})

test('a stylesheet the server cannot read (the dev server’s) is linked', () => {
	const html = renderToString(
		<InlineStylesheetProvider value={(href) => BUILT[href]}>
			<Routes initialEntries={['/shop']} />
		</InlineStylesheetProvider>,
	)
	expect(html).toContain('<style data-precedence="app" data-href="/assets/app.css">.app{color:red}</style>')
	expect(html).toContain('<link rel="stylesheet" href="/assets/shop.css" data-precedence="app"/>')
})

test('in the browser, what the server sent inline stays as it is and a navigation links what it adds', async () => {
	document.head.innerHTML = '<style data-precedence="app" data-href="/assets/app.css /assets/sessions.css">.app{color:red}</style>'
	const view = render(<Routes initialEntries={['/en']} />)
	expect(document.querySelectorAll('link')).toHaveLength(0)
	await act(async () => view.getByRole('link', { name: 'shop' }).click())
	const links = Array.from(document.head.querySelectorAll('link[rel="stylesheet"]'), (link) => link.getAttribute('href'))
	expect(links).toEqual(['/assets/shop.css'])
	expect(document.head.querySelectorAll('style')).toHaveLength(1)
})
