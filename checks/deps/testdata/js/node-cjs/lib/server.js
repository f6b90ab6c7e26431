#!/usr/bin/env node
'use strict'
const express = require('express')
const bodyParser = require("body-parser")
const { readFile } = require('fs/promises')
const http = require('http')
const cors = require('cors') // want js-unresolved-import "cors"
const helper = require('./helper')
module.exports = express
