// Imports an assistant might write. Each "want" comment names the rule that
// must fire on that line and the text it must cover.
import React, { useState } from 'react'
import merge from "lodash/merge"
import { Button } from '@acme/ui'
import { x } from '@app/utils'
import cfg from 'config'
import { y } from 'components/Button'
import fs from 'fs'
import path from 'node:path'
import test from 'node:test'
import type { Foo } from './types'
import sched from 'scheduler'
import helpers from '@babel/runtime/helpers/extends'
import env from 'loose-envify'
import tokens from 'js-tokens'
import pad from 'my-left-pad'
import * as nodeTypes from 'node'
import './styles.css'

import hooks from 'react-super-hooks' // want js-unresolved-import "react-super-hooks"
import _ from 'lodahs' // want js-unresolved-import "lodahs" fix="lodash"
import axios from 'axios' // want js-unresolved-import "axios"
import type { Thing } from '@acme/not-a-workspace' // want js-unresolved-import "@acme/not-a-workspace"
import 'side-effect-pkg' // want js-unresolved-import "side-effect-pkg"
import {
  a,
  b as c,
} from 'multi-line-pkg' // want js-unresolved-import "multi-line-pkg"
export { thing } from 'reexported-pkg' // want js-unresolved-import "reexported-pkg"
export * from './local'
export type { T } from "typed-reexport" // want js-unresolved-import "typed-reexport"
import legacy = require('ts-require-pkg') // want js-unresolved-import "ts-require-pkg"

const express = require('expresss') // want js-unresolved-import "expresss" fix="express"
const dayjs = await import('dayjs') // want js-unresolved-import "dayjs"
const lazy = () => import(/* webpackChunkName: "x" */ 'chunked-pkg') // want js-unresolved-import "chunked-pkg"
const dyn = require(path.join('not', 'literal'))
const s = "import x from 'fake-in-string'"
// import y from 'fake-in-comment'
/* require('fake-in-block-comment') */
const re = /from 'fake-in-regex'/g
const ratio = total / count / 2; const q = require('after-division') // want js-unresolved-import "after-division"
const t = `${require('tmpl-dep')} and import('x')` // want js-unresolved-import "tmpl-dep"
const obj = { import: 1, require: 2 }
try {
  require('optional-native-dep')
} catch (e) {}
let fast; try { fast = await import('optional-esm') } catch { fast = null }
if (obj) { require('after-try-block') } // want js-unresolved-import "after-try-block"
obj.require('not-a-call-of-require')

export default function App() {
  const [n] = useState(0)
  return <p title="it's">Don't import 'jsx-text' here {n}</p>
}
