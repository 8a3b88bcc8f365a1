// A request's body as text, for the loopback stand-ins (identity-providers.js,
// channel-platforms.js); a body past `limit` characters ends the request.
export function readBody(req, limit = 64 * 1024) {
	return new Promise((resolve, reject) => {
		let body = ''
		req.setEncoding('utf8')
		req.on('data', (chunk) => {
			body += chunk
			if (body.length > limit) req.destroy(new Error('body too large'))
		})
		req.on('end', () => resolve(body))
		req.on('error', reject)
	})
}
