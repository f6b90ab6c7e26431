import x from 'hallucinated'
import _ from 'lodahs' // want js-unresolved-import "lodahs" fix="lodash"
const express = require('expresss') // want js-unresolved-import "expresss" fix="express"
import fs from 'node:fs'
import helper from './helper.js'
import React from 'react'
