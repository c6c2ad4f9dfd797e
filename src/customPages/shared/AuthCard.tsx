/** The centred card the login, register, reset and setup pages sit in. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';

interface AuthCardProps {
  title: string;
  children: ReactNode;
  width?: number;
}

export function AuthCard({ title, children, width = 420 }: AuthCardProps) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'flex-start', px: 2, py: { xs: 3, sm: 8 } }}>
      <Card sx={{ width: '100%', maxWidth: width }} variant="outlined">
        <CardContent sx={{ p: 3 }}>
          <Typography variant="h5" component="h1" align="center" gutterBottom>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
