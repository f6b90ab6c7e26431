import x from 'hallucinated'
