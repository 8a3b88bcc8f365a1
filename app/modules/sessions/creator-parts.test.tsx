import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import { loadCreatorParts, StopConfirm } from './creator-parts'
import { testI18n, Translated } from '#tests/support/components'

/**
 * The creator's parts are a chunk of their own; once the server has loaded
 * it (before it renders a creator's page), they render at once, in the
 * page's flow: the page is whole for a browser without JavaScript.
 */

const i18n = await testI18n('en')

test('loaded, a part renders without suspending', async () => {
	await loadCreatorParts()
	const Stub = createRoutesStub([{ path: '/en/session/s', Component: () => <StopConfirm dares={[]} formKey="k" lang="en" /> }])
	const html = renderToString(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/session/s']} />
		</Translated>,
	)
	expect(html).toContain('<details class="stop-confirm">')
	expect(html).toContain(i18n.t('sessions.stop-confirm-empty'))
})
