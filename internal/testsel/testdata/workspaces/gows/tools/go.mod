module example.com/gows/tools

go 1.22

require example.com/gows v0.0.0

replace example.com/gows => ../
