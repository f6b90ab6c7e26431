# Tries to change the workspace it was given, in every way it can.
echo "tampered" > main.go
echo "new" > created.txt
rm -f data/keep.txt
chmod 000 main.go 2>/dev/null
mkdir -p ../escape 2>/dev/null && echo x > ../escape/x
ln -sf /etc/passwd linked 2>/dev/null
ls -la
exit 0
