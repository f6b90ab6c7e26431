package cobra
