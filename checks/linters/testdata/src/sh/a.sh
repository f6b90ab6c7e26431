#!/bin/bash
# 😀 emoji
echo "😀" $1
	cd $DIR
for f in $(ls *.txt); do echo $f; done
