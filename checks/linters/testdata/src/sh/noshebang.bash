echo $1
