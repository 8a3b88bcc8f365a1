// The minimal React Router app's server (bench/boost.ts builds and starts it):
// the Express setup of the product's server.js, without the product: no
// guard, no shared renders, no services. Express 5, compression, the hashed
// assets served immutable, and React Router's own Express request handler.
//   MINIMAL_APP_BUILD_DIR=<build> PORT=<port> node bench/minimal-app/server.js
import { createServer } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express from 'express'

process.env.NODE_ENV ??= 'production'
const dir = process.env.MINIMAL_APP_BUILD_DIR
if (!dir) throw new Error('Set MINIMAL_APP_BUILD_DIR to the minimal app build.')
const build = await import(pathToFileURL(join(dir, 'server/index.js')).href)

const app = express()
app.disable('x-powered-by')
app.use(compression())
app.use('/assets', express.static(join(dir, 'client/assets'), { immutable: true, maxAge: '1y', index: false }))
app.use(express.static(join(dir, 'client'), { maxAge: '1h', index: false }))
app.all('/{*splat}', createRequestHandler({ build, mode: process.env.NODE_ENV }))

const http = createServer({ keepAliveTimeout: 65_000 }, app)
http.listen(Number(process.env.PORT ?? 3100), '127.0.0.1', () => console.log(`minimal app on ${process.env.PORT ?? 3100}`))
process.once('SIGTERM', () => {
	http.close(() => process.exit(0))
	http.closeIdleConnections()
})
