namespace RpcCompare.Service.Internal;

/// <summary>Creates the file and directory the measurements use, only where they are missing.</summary>
internal static class DataRootSeeder
{
    public static void Seed(string root, long fileSize, int directoryEntries)
    {
        var file = Path.Combine(root, DataRoot.DefaultFileName);
        if (!File.Exists(file))
        {
            using var stream = new FileStream(file, FileMode.CreateNew, FileAccess.Write);
            var block = new byte[64 * 1024];
            for (var i = 0; i < block.Length; i++)
            {
                block[i] = (byte)(i * 31);
            }

            // Stryker disable once Equality : one more turn at written == fileSize writes 0 bytes
            for (long written = 0; written < fileSize; written += block.Length)
            {
                stream.Write(block, 0, (int)Math.Min(block.Length, fileSize - written));
            }
        }

        var directory = Path.Combine(root, DataRoot.DefaultDirectoryName);
        if (!Directory.Exists(directory))
        {
            Directory.CreateDirectory(directory);
            // A tenth of the entries are directories so listings exercise both kinds.
            for (var i = 0; i < directoryEntries; i++)
            {
                var name = Path.Combine(directory, $"entry-{i:D5}");
                if (i % 10 == 9)
                {
                    Directory.CreateDirectory(name);
                }
                else
                {
                    File.WriteAllBytes(name + ".txt", new byte[i * 10]);
                }
            }
        }
    }
}
