using System.Collections.Concurrent;
using System.Reflection;
using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;

namespace RpcCompare.Bindings.ContractAssemblies;

/// <summary>
/// A team's service assembly, loaded by path (the host's and the runner's <c>--contracts</c>):
/// each public [ServiceContract] interface in it paired with the one public class in it that
/// implements it (a WCF client class generated beside the contract, <c>ClientBase&lt;T&gt;</c>, is
/// not an implementation). Loaded once per path and process, in a load context of its own
/// (<see cref="ContractAssemblyLoadContext"/>) that shares the process's own assemblies, so the
/// contract's attributes are the types the contract model looks for. The host and the runner load
/// the same file this way, each in its own process.
/// </summary>
public sealed class ContractAssembly
{
    private static readonly ConcurrentDictionary<string, Lazy<ContractAssembly>> s_loaded = new(StringComparer.Ordinal);

    private ContractAssembly(string path, Assembly assembly, IReadOnlyList<RpcServiceDescriptor> services, IReadOnlyList<string> notServed)
    {
        Path = path;
        Assembly = assembly;
        Services = services;
        NotServed = notServed;
    }

    /// <summary>Full path of the assembly file.</summary>
    public string Path { get; }

    public Assembly Assembly { get; }

    /// <summary>Every contract with an implementation in the assembly, by full name.</summary>
    public IReadOnlyList<RpcServiceDescriptor> Services { get; }

    /// <summary>Contracts declared without an implementation beside them, each with the reason, for the host's start-up log.</summary>
    public IReadOnlyList<string> NotServed { get; }

    /// <summary>The assembly's file name, as reports name it.</summary>
    public string Name => System.IO.Path.GetFileName(Path);

    /// <summary>
    /// Creates each implementation from <paramref name="services"/> (singletons: the instance the
    /// bindings will serve), so a constructor the container cannot satisfy is an error before the
    /// first call. Throws <see cref="InvalidOperationException"/> naming the class, its contract and the container's reason.
    /// </summary>
    public void CreateImplementations(IServiceProvider services)
    {
        ArgumentNullException.ThrowIfNull(services);
        foreach (var service in Services)
        {
            try
            {
                services.GetRequiredService(service.Implementation);
            }
            catch (InvalidOperationException exception)
            {
                throw new InvalidOperationException($"{Name}: {service.Implementation.FullName} cannot be created for {service.Contract.FullName}: {exception.Message}", exception);
            }
        }
    }

    /// <summary>
    /// Loads the assembly at <paramref name="path"/> (once per process) and pairs its contracts with
    /// their implementations. Throws <see cref="ContractAssemblyException"/> with what to do about it.
    /// </summary>
    public static ContractAssembly Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = System.IO.Path.GetFullPath(path);
        // Lazy caches a failure too: every caller sees the same error for the same file.
        return s_loaded.GetOrAdd(full, static p => new Lazy<ContractAssembly>(() => Read(p))).Value;
    }

    private static ContractAssembly Read(string path)
    {
        if (!File.Exists(path))
        {
            throw new ContractAssemblyException(path, "there is no such file. Give the path of the .dll your service project builds (bin/Release/net10.0/Team.Services.dll) or publishes.");
        }

        Assembly assembly;
        Type[] types;
        try
        {
            assembly = new ContractAssemblyLoadContext(path).LoadFromAssemblyPath(path);
            types = assembly.GetExportedTypes();
        }
        catch (BadImageFormatException exception)
        {
            throw new ContractAssemblyException(path, $"it is not a .NET assembly ({exception.Message})", exception);
        }
        catch (InvalidOperationException exception)
        {
            // AssemblyDependencyResolver refuses a .deps.json it cannot read.
            throw new ContractAssemblyException(path, $"its dependencies cannot be resolved ({exception.Message})", exception);
        }
        catch (FileLoadException exception)
        {
            // Found, but not as the version it was built against: an assembly the process ships is
            // always the process's own copy, so a newer one beside the team's assembly does not help.
            throw new ContractAssemblyException(path,
                $"a dependency could not be loaded as the version it was built against ({exception.Message}). Assemblies the host ships " +
                "(System.ServiceModel.*, Microsoft.Extensions.*, protobuf-net) are shared at the host's version: build against the same or older ones.", exception);
        }
        catch (Exception exception) when (exception is FileNotFoundException or ReflectionTypeLoadException or TypeLoadException)
        {
            throw new ContractAssemblyException(path,
                $"a type in it could not be loaded ({FirstLoaderMessage(exception)}). A dependency the host does not ship must sit beside the assembly: " +
                "point at the output of `dotnet publish` of your service project, or set CopyLocalLockFileAssemblies in it.", exception);
        }

        // By full name: the order reflection returns types in is not a promise.
        var contracts = types.Where(t => t.IsInterface && t.IsDefined(typeof(ServiceContractAttribute), inherit: false)).OrderBy(t => t.FullName, StringComparer.Ordinal).ToList();
        if (contracts.Count == 0)
        {
            throw new ContractAssemblyException(path, "it declares no public interface with [ServiceContract] (System.ServiceModel.ServiceContractAttribute).");
        }

        var classes = types.Where(t => t is { IsClass: true, IsAbstract: false, ContainsGenericParameters: false } && !IsWcfClient(t)).ToList();
        // Report rows and WCF endpoints (socket files on wcf-uds) are named by the interface's name.
        if (contracts.GroupBy(c => c.Name).FirstOrDefault(g => g.Count() > 1) is { } clash)
        {
            throw new ContractAssemblyException(path,
                $"{string.Join(" and ", clash.Select(c => c.FullName))} share the name {clash.Key}, which names their endpoints and report rows; rename one.");
        }

        var services = new List<RpcServiceDescriptor>();
        var notServed = new List<string>();
        foreach (var contract in contracts)
        {
            var implementations = classes.Where(contract.IsAssignableFrom).ToList();
            switch (implementations.Count)
            {
                case 0:
                    notServed.Add($"{contract.FullName}: no public class in {System.IO.Path.GetFileName(path)} implements it, so it is not served");
                    break;
                case 1:
                    services.Add(new RpcServiceDescriptor(contract, implementations[0]));
                    break;
                default:
                    throw new ContractAssemblyException(path,
                        $"{contract.FullName} has {implementations.Count} implementations ({string.Join(", ", implementations.Select(i => i.FullName))}); " +
                        "the host serves one class per contract, so keep one public and make the others internal.");
            }
        }

        if (services.Count == 0)
        {
            throw new ContractAssemblyException(path, $"none of its contracts has an implementation in it: {string.Join("; ", notServed)}.");
        }

        return new ContractAssembly(path, assembly, services, notServed);
    }

    private static bool IsWcfClient(Type type)
    {
        for (var t = type.BaseType; t is not null; t = t.BaseType)
        {
            if (t.IsGenericType && t.GetGenericTypeDefinition() == typeof(ClientBase<>))
            {
                return true;
            }
        }

        return false;
    }

    private static string FirstLoaderMessage(Exception exception) => exception is ReflectionTypeLoadException { LoaderExceptions: [{ } first, ..] }
        ? first.Message
        : exception.Message;
}
