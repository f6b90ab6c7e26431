package mux
