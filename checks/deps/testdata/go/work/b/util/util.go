package util
