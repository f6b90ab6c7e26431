# A memory bomb: a string that doubles until memory runs out.
awk 'BEGIN { s = "xxxxxxxxxxxxxxxx"; while (1) { s = s s } }'
