package ws
